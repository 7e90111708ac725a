package dev.a2atasks.binding.http;

import java.time.Duration;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * The bound on a streaming response whose client has stopped reading: if the response's write
 * queue is full at every look for {@code maxStall}, {@code onStall} runs once, and it is up to
 * the caller to cut the client off (close the connection, reset the stream). Used by Server-Sent
 * Events and by gRPC's server-streaming calls, which run on the same HTTP server.
 *
 * <p>The looks run on the connection's own event loop whatever thread writes the events (a
 * write from another thread is queued, so a look right after it would not see it yet). They stop
 * when the response is closed or has ended (Vert.x answers no question about the queue of an
 * ended response): what a client that never reads was sent before the end stays queued until its
 * connection closes.
 */
public final class StallWatch {

    /** The HTTP/2 error code a cut-off stream is reset with; gRPC clients read it as RESOURCE_EXHAUSTED. */
    public static final long ENHANCE_YOUR_CALM = 0xb;

    private StallWatch() {
    }

    /** Starts looking at {@code context}'s response; the returned action stops the looks early. */
    public static Runnable start(RoutingContext context, Duration maxStall, Runnable onStall) {
        HttpServerResponse response = context.response();
        long every = Math.max(1, maxStall.toMillis() / 4);
        long[] fullSince = { -1 }; // when the queue was first seen full, in nanos; -1: not full at the last look
        long timer = context.vertx().setPeriodic(every, id -> {
            // An ended response can no longer be asked about its queue (Vert.x throws): the watch
            // ends with it.
            if (response.closed() || response.ended()) {
                context.vertx().cancelTimer(id);
            } else if (!response.headWritten() || !queueFull(response)) {
                fullSince[0] = -1;
            } else if (fullSince[0] < 0) {
                fullSince[0] = System.nanoTime();
            } else if (System.nanoTime() - fullSince[0] >= maxStall.toNanos()) {
                context.vertx().cancelTimer(id);
                onStall.run();
            }
        });
        return () -> context.vertx().cancelTimer(timer);
    }

    /** The queue's state; a response another thread ended since the look began counts as not full. */
    private static boolean queueFull(HttpServerResponse response) {
        try {
            return response.writeQueueFull();
        } catch (IllegalStateException ended) {
            return false; // the next look sees it ended and stops
        }
    }
}
