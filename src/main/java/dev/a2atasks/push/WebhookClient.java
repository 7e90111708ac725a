package dev.a2atasks.push;

import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;

/**
 * One POST to a webhook, at an address the {@link WebhookGuard} judged: connected to that address
 * (the Host header and TLS name stay the URL's host), never following a redirect, within one
 * overall deadline, reading at most a capped number of answer bytes. Says how it ended: the HTTP
 * status, or why there was none.
 */
final class WebhookClient {

    /** How a POST ended: {@code status} 0 when there was no answer, and then {@code error} says why. */
    record Answer(int status, String error) {
        boolean delivered() {
            return status >= 200 && status < 300;
        }

        String describe() {
            return status > 0 ? "HTTP " + status : error;
        }
    }

    private final Vertx vertx;
    private final HttpClient http;
    private final Duration timeout;
    private final int maxResponseBytes;

    /**
     * {@code connections}: how many connections to one host and port may be open at once. The
     * worker's shares (per tenant, per URL, overall) are what bound deliveries; this is set to
     * the overall bound so the pool never queues a delivery they let through: a smaller pool
     * would hold deliveries to one receiver (or to many URLs on one host) waiting for a
     * connection, their wait counted against the timeout, below the shares the docs promise.
     */
    WebhookClient(Vertx vertx, Duration timeout, int maxResponseBytes, int connections) {
        this.vertx = vertx;
        this.timeout = timeout;
        this.maxResponseBytes = maxResponseBytes;
        this.http = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .setKeepAlive(true)
                .setForceSni(true)
                .setVerifyHost(true)
                .setMaxPoolSize(connections)
                .setName("a2a-push"));
    }

    /** Never throws: a request that cannot even be made (a port out of range, say) is an answer too. */
    CompletionStage<Answer> post(URI url, InetAddress address, byte[] body, Map<String, String> headers) {
        try {
            return postOrThrow(url, address, body, headers);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new Answer(0, "request could not be made: " + describe(e)));
        }
    }

    private CompletionStage<Answer> postOrThrow(URI url, InetAddress address, byte[] body, Map<String, String> headers) {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        boolean https = url.getScheme().equalsIgnoreCase("https");
        int port = url.getPort() == -1 ? https ? 443 : 80 : url.getPort(); // port 0 is not "none": it fails below
        String path = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
                .setHost(url.getHost().startsWith("[") ? url.getHost().substring(1, url.getHost().length() - 1) : url.getHost())
                .setPort(port)
                .setSsl(https)
                .setURI(path)
                .setFollowRedirects(false)
                .setConnectTimeout(timeout.toMillis());
        headers.forEach(options::putHeader);
        AtomicBoolean settled = new AtomicBoolean();
        AtomicReference<HttpClientRequest> inFlight = new AtomicReference<>();
        long deadline = vertx.setTimer(Math.max(1, timeout.toMillis()), id -> {
            if (settled.compareAndSet(false, true)) {
                answer.complete(new Answer(0, "no answer within " + timeout.toMillis() + " ms"));
                HttpClientRequest request = inFlight.get();
                if (request != null) {
                    request.reset(); // the connection is dropped, not returned to the pool half-read
                }
            }
        });
        http.request(options).onComplete(requested -> {
            if (requested.failed()) {
                settle(settled, deadline, answer, new Answer(0, "connection failed: " + describe(requested.cause())));
                return;
            }
            HttpClientRequest request = requested.result();
            inFlight.set(request);
            request.send(Buffer.buffer(body)).onComplete(sent -> {
                if (sent.failed()) {
                    settle(settled, deadline, answer, new Answer(0, "request failed: " + describe(sent.cause())));
                    return;
                }
                var response = sent.result();
                int status = response.statusCode();
                long[] read = new long[1];
                response.handler(chunk -> {
                    read[0] += chunk.length();
                    if (read[0] > maxResponseBytes) {
                        // Enough: the status is known; the rest of an oversized answer is not read.
                        settle(settled, deadline, answer, new Answer(status, null));
                        request.reset();
                    }
                });
                response.exceptionHandler(e -> settle(settled, deadline, answer, new Answer(status, null)));
                response.endHandler(ignored -> settle(settled, deadline, answer, new Answer(status, null)));
            });
        });
        return answer;
    }

    void close() {
        http.close();
    }

    private void settle(AtomicBoolean settled, long deadline, CompletableFuture<Answer> answer, Answer value) {
        if (settled.compareAndSet(false, true)) {
            vertx.cancelTimer(deadline);
            answer.complete(value);
        }
    }

    /** A transport failure in a few words: its type and message, never a stack trace. */
    private static String describe(Throwable e) {
        String message = e.getMessage();
        String text = e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        return text.length() > 200 ? text.substring(0, 200) : text;
    }
}
