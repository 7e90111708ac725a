package dev.a2atasks.binding.json;

import dev.a2atasks.binding.http.StallWatch;
import dev.a2atasks.binding.http.HttpLimitsConfig;
import java.util.function.Function;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * Server-Sent Events on a Vert.x response (spec §11.7): each item one {@code data:} event. The
 * status line is written with the first event, so a failure before it (validation, an unknown
 * task) is still an ordinary error response; a failure after it ends the stream with one last
 * event. A client that goes away cancels the subscription, which stops the reads behind it.
 */
public final class EventStream {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(EventStream.class);

    private EventStream() {
    }

    /**
     * Pipes the events to the response. A client that leaves what was written unread for
     * {@code maxStall} (the write queue full all that time) is cut off: its subscription is
     * canceled and its connection closed, so a client that never reads holds its buffers for a
     * bounded time, not for the life of the task. The connection's kernel send buffer is capped
     * first ({@link HttpLimitsConfig#streamSendBufferBytes}), so what such a client leaves unread
     * shows in the write queue rather than in megabytes of kernel buffer.
     */
    public static void pipe(RoutingContext context, Multi<String> events, Function<Throwable, HttpError> beforeFirst,
            Function<Throwable, String> afterFirst, HttpLimitsConfig limits) {
        java.time.Duration maxStall = limits.maxStreamStall();
        HttpServerResponse response = context.response();
        capSendBuffer(context, limits.streamSendBufferBytes());
        java.util.concurrent.atomic.AtomicReference<Cancellable> subscription = new java.util.concurrent.atomic.AtomicReference<>();
        Runnable stopWatch = StallWatch.start(context, maxStall, () -> {
            LOG.infof("Cut off a stream whose client read nothing for %s (%s %s)", maxStall, context.request().method(),
                    context.request().path());
            Cancellable running = subscription.get();
            if (running != null) {
                running.cancel();
            }
            dropConnection(context);
        });
        // The close handler goes on first: a stream that fails at once (validation) ends the
        // response during subscribe(), after which the response takes no handler any more.
        response.closeHandler(ignored -> {
            stopWatch.run();
            Cancellable running = subscription.get();
            if (running != null) {
                running.cancel();
            }
        });
        subscription.set(events.subscribe().with(
                data -> {
                    if (response.closed()) {
                        return;
                    }
                    if (!response.headWritten()) {
                        response.setStatusCode(200).setChunked(true)
                                .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream")
                                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
                    }
                    response.write(event(data));
                },
                failure -> {
                    if (response.closed()) {
                        return;
                    }
                    if (!response.headWritten()) {
                        HttpError error = beforeFirst.apply(failure);
                        response.setStatusCode(error.status()).putHeader(HttpHeaders.CONTENT_TYPE, error.mediaType());
                        error.headers().forEach(response::putHeader);
                        response.end(Buffer.buffer(error.body()));
                    } else {
                        response.end(event(afterFirst.apply(failure)));
                    }
                },
                () -> {
                    if (!response.closed()) {
                        if (!response.headWritten()) {
                            response.setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream");
                        }
                        response.end();
                    }
                }));
        if (response.closed()) {
            subscription.get().cancel(); // the client left while subscribe() ran
        }
    }

    /** Fixes the connection's kernel send buffer (SO_SNDBUF); over HTTP/1.1 a stream has its connection to itself until it ends. */
    private static void capSendBuffer(RoutingContext context, int bytes) {
        if (context.request().version() != io.vertx.core.http.HttpVersion.HTTP_2
                && context.request().connection() instanceof io.vertx.core.net.impl.ConnectionBase connection) {
            connection.channel().config().setOption(io.netty.channel.ChannelOption.SO_SNDBUF, bytes);
        }
    }

    /**
     * Closes the connection at once, dropping what it still holds: Vert.x's own close waits to
     * flush what was written first, which a client that does not read never lets happen. With
     * SO_LINGER 0 the close is a reset, which frees the kernel's send buffer too. Over HTTP/2
     * only the stream is reset (ENHANCE_YOUR_CALM).
     */
    private static void dropConnection(RoutingContext context) {
        if (context.request().version() != io.vertx.core.http.HttpVersion.HTTP_2 // HTTP/2: the connection carries other streams
                && context.request().connection() instanceof io.vertx.core.net.impl.ConnectionBase connection) {
            io.netty.channel.Channel channel = connection.channel();
            channel.config().setOption(io.netty.channel.ChannelOption.SO_LINGER, 0);
            channel.close();
        } else {
            context.response().reset(StallWatch.ENHANCE_YOUR_CALM);
        }
    }

    /** One event: {@code data: <json>} and a blank line; the JSON is printed on one line, so one data field holds it. */
    static Buffer event(String data) {
        return Buffer.buffer("data: " + data + "\n\n");
    }
}
