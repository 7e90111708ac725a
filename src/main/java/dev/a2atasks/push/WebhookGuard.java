package dev.a2atasks.push;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Resolves a webhook's host and judges every address it resolves to with the {@link AddressPolicy}:
 * at registration, and again before each delivery (a name's addresses can change in between).
 * The delivery then connects to the address judged here, never to a second lookup of the name,
 * so a DNS answer that changes between check and connect (rebinding) gains nothing.
 *
 * <p>Lookups block (the system resolver, which also reads /etc/hosts); they run on the Vert.x
 * worker pool and answer on the caller's context. A host written as an address (a dotted IPv4
 * quad, a bracketed IPv6 address) needs no lookup and is judged on the caller's thread.
 */
@ApplicationScoped
public class WebhookGuard {

    private final Vertx vertx;
    private final AddressPolicy policy;

    WebhookGuard(Vertx vertx, PushSettings settings) {
        this.vertx = vertx;
        this.policy = settings.allowList().map(AddressPolicy::allowing).orElseGet(AddressPolicy::strict);
    }

    /** Thrown (as the failure of {@link #check}) when the URL may not be called; the message says why. */
    public static final class Refused extends Exception {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The addresses the URL's host may be called at, or a {@link Refused} failure. */
    public Uni<List<InetAddress>> check(URI url) {
        String host = url.getHost();
        if (isAddress(host)) {
            try {
                return Uni.createFrom().item(judged(host));
            } catch (Refused e) {
                return Uni.createFrom().failure(e);
            }
        }
        Context context = Vertx.currentContext();
        Context on = context != null ? context : vertx.getOrCreateContext();
        return Uni.createFrom().completionStage(() -> on.<List<InetAddress>>executeBlocking(() -> judged(host), false).toCompletionStage());
    }

    /** The host's addresses, each allowed by the policy; a lookup for a name, none for an address. */
    private List<InetAddress> judged(String host) throws Refused {
        List<InetAddress> addresses;
        try {
            addresses = List.of(InetAddress.getAllByName(host)); // a bracketed host must be an IPv6 address: never looked up
        } catch (UnknownHostException e) {
            throw new Refused("its host does not resolve");
        }
        String refusal = policy.refusal(host, addresses);
        if (refusal != null) {
            throw new Refused(refusal);
        }
        return addresses;
    }

    /**
     * Whether the JDK takes {@code host} as an address without a lookup: a bracketed IPv6 address
     * (the JDK refuses one that is not, without a lookup) or an IPv4 address in its canonical form,
     * four numbers up to 255 without leading zeros. Anything else, the other IPv4 forms included,
     * goes the way of a name, on a worker thread: the JDK may look it up.
     */
    static boolean isAddress(String host) {
        return host.startsWith("[") || DOTTED_QUAD.matcher(host).matches();
    }

    private static final java.util.regex.Pattern DOTTED_QUAD = java.util.regex.Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
}
