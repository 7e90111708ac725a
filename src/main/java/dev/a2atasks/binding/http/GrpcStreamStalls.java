package dev.a2atasks.binding.http;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.a2atasks.proto.history.v1.TaskHistoryServiceGrpc;
import dev.a2atasks.proto.v1.A2AServiceGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The stall bound for gRPC's server-streaming calls (SendStreamingMessage, SubscribeToTask). The
 * Mutiny stubs push a stream's messages without regard to the client's flow-control window, so a
 * client that stops reading leaves them queued on its HTTP/2 stream for the life of the task.
 * gRPC runs on this HTTP server, so the watch that bounds Server-Sent Events ({@link StallWatch})
 * can look at the same response: unread for {@code a2a.http.limits.max-stream-stall}, the stream
 * is reset with ENHANCE_YOUR_CALM, which frees what it held and which gRPC clients report as
 * RESOURCE_EXHAUSTED. Events are durable; the client subscribes again and goes on.
 */
@ApplicationScoped
class GrpcStreamStalls {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(GrpcStreamStalls.class);

    /** The paths of every server-streaming method this service serves ({@code /package.Service/Method}). */
    static final Set<String> STREAMING_PATHS = Stream.of(A2AServiceGrpc.getServiceDescriptor(), TaskHistoryServiceGrpc.getServiceDescriptor())
            .map(ServiceDescriptor::getMethods).flatMap(java.util.Collection::stream)
            .filter(m -> m.getType() == MethodDescriptor.MethodType.SERVER_STREAMING)
            .map(m -> "/" + m.getFullMethodName()).collect(Collectors.toUnmodifiableSet());

    private final HttpLimitsConfig limits;

    GrpcStreamStalls(HttpLimitsConfig limits) {
        this.limits = limits;
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 5).handler(this::watch);
    }

    private void watch(RoutingContext context) {
        if (STREAMING_PATHS.contains(context.request().path()) && GrpcRequests.isGrpc(context.request())) {
            StallWatch.start(context, limits.maxStreamStall(), () -> {
                LOG.infof("Cut off a gRPC stream whose client read nothing for %s (%s)", limits.maxStreamStall(),
                        context.request().path());
                context.response().reset(StallWatch.ENHANCE_YOUR_CALM);
            });
        }
        context.next();
    }
}
