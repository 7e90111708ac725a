package dev.a2atasks.binding.json;

import dev.a2atasks.protocol.RequestIds;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** First on every HTTP request (gRPC included): its request id in the log context and in the response's {@code X-Request-Id}. */
@ApplicationScoped
class RequestIdFilter {

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            String id = RequestIds.begin(context.request().getHeader(RequestIds.HEADER));
            context.response().putHeader(RequestIds.HEADER, id);
            context.next();
        });
    }
}
