package dev.a2atasks.binding.json;

import dev.a2atasks.binding.http.GrpcRequests;
import dev.a2atasks.binding.http.HttpLimitsConfig;
import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.protocol.Failures;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The HTTP layer's filter and refusals. The filter records each request's A2A service parameters
 * once ({@link HttpServiceParameters}), serves the routes under the configured path prefix too, and
 * routes a custom method whose colon is escaped. The
 * refusals are those the HTTP layer makes before any binding runs, in the binding's error shape:
 * an unknown path, a method a path does not take, a URL with a bad percent-escape, a body, URL or
 * header block over the limits. Without this they leave with the framework's empty bodies.
 *
 * <p>The request-line and header limits are enforced here, below the HTTP codec's own (which are
 * set higher, see application.properties), because a request the codec refuses never reaches
 * any handler and could only get an empty 414/431. gRPC calls are left alone: their metadata
 * limit is the gRPC binding's, answered as a gRPC status.
 */
@ApplicationScoped
public class HttpRefusals {

    private static final int[] FRAMEWORK_STATUSES = { 400, 404, 405, 406, 413, 414, 415, 431, 500 };

    private final HttpLimitsConfig limits;
    private final Failures failures;
    private final long maxBodyBytes;
    private final String pathPrefix; // null: none

    HttpRefusals(HttpLimitsConfig limits, Failures failures,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> maxBody,
            @ConfigProperty(name = "a2a.http.path-prefix") Optional<String> pathPrefix) {
        this.limits = limits;
        this.failures = failures;
        this.maxBodyBytes = maxBody.map(MemorySize::asLongValue).orElse(Long.MAX_VALUE);
        this.pathPrefix = pathPrefix.map(HttpRefusals::checkedPrefix).orElse(null);
    }

    /**
     * A path prefix the HTTP+JSON and JSON-RPC bindings are also served under ({@code /a2a/v1}):
     * a run-time setting, unlike {@code quarkus.http.root-path}, so one image serves behind any
     * gateway path. Plain segments only, so that it can never be mistaken for an escape.
     */
    private static String checkedPrefix(String prefix) {
        if (!prefix.matches("(/[A-Za-z0-9._~-]+)+")) {
            throw new IllegalArgumentException("a2a.http.path-prefix must be like /a2a/v1 (segments of letters, digits,"
                    + " '.', '_', '~', '-'; no trailing slash), not '" + prefix + "'");
        }
        return prefix;
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 10).handler(this::enforceLimits);
        for (int status : FRAMEWORK_STATUSES) {
            router.errorHandler(status, context -> respond(context, refusal(context, status)));
        }
    }

    private void enforceLimits(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (GrpcRequests.isGrpc(request)) {
            context.next();
            return;
        }
        if (request.uri().length() > limits.maxRequestLineChars()) {
            respond(context, A2AException.Rejected.ofHttpStatus(414));
            return;
        }
        long headerBytes = 0;
        for (var header : request.headers()) {
            headerBytes += header.getKey().length() + header.getValue().length() + 4; // ": " and CRLF
        }
        if (headerBytes > limits.maxHeaderBytes()) {
            respond(context, A2AException.Rejected.ofHttpStatus(431));
            return;
        }
        // A declared body over the limit: answered here, with a body, before the framework's empty 413.
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && length.length() < 19 && length.chars().allMatch(Character::isDigit)
                && Long.parseLong(length) > maxBodyBytes) {
            respond(context, A2AException.Rejected.ofHttpStatus(413));
            return;
        }
        String uri = request.uri();
        int q = uri.indexOf('?');
        try {
            StrictUrl.check(q < 0 ? uri : uri.substring(0, q), q < 0 ? null : uri.substring(q + 1));
        } catch (A2AException invalid) {
            respond(context, invalid);
            return;
        }
        String path = request.path();
        if (pathPrefix != null && path.startsWith(pathPrefix)
                && (path.length() == pathPrefix.length() || path.charAt(pathPrefix.length()) == '/')) {
            // "/a2a/v1/tasks" is "/tasks" here: the prefix is where a gateway (or the card's URL) puts this
            // service, and it wins over a tenant of the same name ("/v1/tasks" is not tenant v1's list).
            String rest = path.substring(pathPrefix.length());
            context.reroute(request.method(), (rest.isEmpty() ? "/" : rest) + (q < 0 ? "" : uri.substring(q)));
            return;
        }
        int escapedColon = path.lastIndexOf('/') < 0 ? -1 : indexOfEscapedColon(path);
        if (escapedColon >= 0) {
            // "/tasks/x%3Acancel" is the custom method ":cancel" with its colon escaped, as some clients send it.
            context.reroute(request.method(), path.substring(0, escapedColon) + ":" + path.substring(escapedColon + 3)
                    + (q < 0 ? "" : uri.substring(q)));
            return;
        }
        HttpServiceParameters.record(context);
        context.next();
    }

    /** Where the last path segment escapes the colon of an A2A custom method (":cancel", ":subscribe", ":send", ":stream"), or -1. */
    private static int indexOfEscapedColon(String path) {
        String last = path.substring(path.lastIndexOf('/') + 1);
        int at = last.toLowerCase(java.util.Locale.ROOT).lastIndexOf("%3a");
        if (at < 0) {
            return -1;
        }
        String verb = last.substring(at + 3);
        return verb.equals("cancel") || verb.equals("subscribe") || verb.equals("send") || verb.equals("stream")
                ? path.length() - last.length() + at : -1;
    }

    private A2AException refusal(RoutingContext context, int status) {
        if (status == 500) {
            return failures.classify(context.failure() == null ? new IllegalStateException("HTTP 500 without a cause")
                    : context.failure(), "HTTP");
        }
        if (context.failure() instanceof A2AException known) {
            return known;
        }
        return A2AException.Rejected.ofHttpStatus(status); // a status without its own row reads as a malformed request
    }

    private static void respond(RoutingContext context, A2AException error) {
        if (context.response().headWritten()) {
            context.response().close(); // nothing sensible can follow a started response
            return;
        }
        HttpError http = isJsonRpc(context.request()) ? HttpError.ofJsonRpc(error)
                : HttpError.of(error, context.request().getHeader(HttpHeaders.ACCEPT));
        context.response().setStatusCode(http.status()).putHeader(HttpHeaders.CONTENT_TYPE, http.mediaType());
        http.headers().forEach(context.response()::putHeader);
        context.response().end(Buffer.buffer(http.body()));
    }

    /** The JSON-RPC endpoint: its callers read JSON-RPC error objects, whatever refused them. */
    private static boolean isJsonRpc(HttpServerRequest request) {
        return request.method() == io.vertx.core.http.HttpMethod.POST && "/".equals(request.path());
    }
}
