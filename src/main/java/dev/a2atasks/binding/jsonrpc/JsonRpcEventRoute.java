package dev.a2atasks.binding.jsonrpc;

import dev.a2atasks.binding.http.HttpLimitsConfig;
import java.util.Locale;

import dev.a2atasks.binding.json.EventStream;
import dev.a2atasks.binding.json.HttpError;
import dev.a2atasks.error.A2AException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.MediaType;

/**
 * JSON-RPC for a client that accepts {@code text/event-stream}: the request is read here and
 * answered as Server-Sent Events by {@link JsonRpcResource#stream}, or, when it is refused before
 * the first event, as the ordinary JSON-RPC error response; every other request goes on
 * to the resource method untouched. A router route, because an SSE response of the REST layer
 * would be committed before anything is known about the request.
 */
@ApplicationScoped
public class JsonRpcEventRoute {

    private static final int ORDER = -100;

    private final JsonRpcResource endpoint;

    private final HttpLimitsConfig limits;

    JsonRpcEventRoute(JsonRpcResource endpoint, HttpLimitsConfig limits) {
        this.limits = limits;
        this.endpoint = endpoint;
    }

    void register(@Observes Router router) {
        router.route(HttpMethod.POST, "/").order(ORDER).handler(this::handle);
    }

    private void handle(RoutingContext context) {
        String accept = context.request().getHeader(HttpHeaders.ACCEPT);
        if (accept == null || !accept.toLowerCase(Locale.ROOT).contains("text/event-stream")) {
            context.next();
            return;
        }
        Buffer body = Buffer.buffer();
        context.request().handler(chunk -> {
            if (body.length() <= JsonRpcResource.MAX_REQUEST_BYTES) {
                body.appendBuffer(chunk);
            }
        });
        context.request().exceptionHandler(context::fail);
        context.request().endHandler(ignored -> {
            String type = context.request().getHeader(HttpHeaders.CONTENT_TYPE);
            MediaType contentType = type == null ? null : MediaType.valueOf(type);
            byte[] bytes = body.length() > JsonRpcResource.MAX_REQUEST_BYTES
                    ? new byte[JsonRpcResource.MAX_REQUEST_BYTES + 1] : body.getBytes(); // refused as too large by the endpoint
            EventStream.pipe(context, endpoint.stream(context, contentType, bytes),
                    failure -> failure instanceof JsonRpcResource.Refusal refusal ? refusal.asHttpError()
                            : HttpError.ofJsonRpc(new A2AException.Internal()),
                    failure -> failure instanceof JsonRpcResource.Refusal refusal ? refusal.asEvent() : "", limits);
        });
        context.request().resume();
    }
}
