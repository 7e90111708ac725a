package dev.a2atasks.binding.json;

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

    private EventStream() {
    }

    public static void pipe(RoutingContext context, Multi<String> events, Function<Throwable, HttpError> beforeFirst,
            Function<Throwable, String> afterFirst) {
        HttpServerResponse response = context.response();
        // The close handler goes on first: a stream that fails at once (validation) ends the
        // response during subscribe(), after which the response takes no handler any more.
        java.util.concurrent.atomic.AtomicReference<Cancellable> subscription = new java.util.concurrent.atomic.AtomicReference<>();
        response.closeHandler(ignored -> {
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

    /** One event: {@code data: <json>} and a blank line; the JSON is printed on one line, so one data field holds it. */
    static Buffer event(String data) {
        return Buffer.buffer("data: " + data + "\n\n");
    }
}
