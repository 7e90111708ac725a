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
 * worker pool and answer on the caller's context.
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
        Context context = Vertx.currentContext();
        Context on = context != null ? context : vertx.getOrCreateContext();
        return Uni.createFrom().completionStage(() -> on.<List<InetAddress>>executeBlocking(() -> {
            List<InetAddress> addresses;
            try {
                String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
                addresses = List.of(InetAddress.getAllByName(bare));
            } catch (UnknownHostException e) {
                throw new Refused("its host does not resolve");
            }
            String refusal = policy.refusal(host, addresses);
            if (refusal != null) {
                throw new Refused(refusal);
            }
            return addresses;
        }, false).toCompletionStage());
    }
}
