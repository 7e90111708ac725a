package dev.a2atasks.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * A webhook on loopback for the push tests: records every POST it receives (path, headers, body,
 * arrival time) and answers by plan: a list of answers for the first requests (an HTTP status, or
 * a silence longer than any delivery timeout), then 200. A 3xx answer points to
 * {@code /redirected-here} on the same server. Plain JDK HTTP server, a thread per request.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** A status to answer with; {@link #SILENT} holds the request without answering for {@code silence}. */
    public static final int SILENT = -1;

    public record Received(long atNanos, String path, Map<String, List<String>> headers, String body) {
        public String header(String name) {
            for (var entry : headers.entrySet()) {
                if (entry.getKey().equalsIgnoreCase(name)) {
                    return entry.getValue().get(0);
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private final List<Integer> plan;
    private final AtomicInteger served = new AtomicInteger();
    private final long silenceMillis;
    private volatile int thereafter = 200;

    public WebhookReceiver(List<Integer> plan, long silenceMillis) throws IOException {
        this.plan = List.copyOf(plan);
        this.silenceMillis = silenceMillis;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "webhook-receiver");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", exchange -> {
            long at = System.nanoTime();
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            received.add(new Received(at, exchange.getRequestURI().toString(), Map.copyOf(exchange.getRequestHeaders()), body));
            int n = served.getAndIncrement();
            int status = n < this.plan.size() ? this.plan.get(n) : thereafter;
            if (status == SILENT) {
                try {
                    Thread.sleep(silenceMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                status = 200; // far too late: the service has given up on this attempt
            }
            byte[] answer = "ok".getBytes(StandardCharsets.UTF_8);
            if (status >= 300 && status < 400) {
                exchange.getResponseHeaders().add("Location", "/redirected-here");
            }
            try {
                exchange.sendResponseHeaders(status, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            } catch (IOException e) {
                // The service hung up first (its timeout): nothing to answer.
            }
            exchange.close();
        });
        server.start();
    }

    public WebhookReceiver() throws IOException {
        this(List.of(), 0);
    }

    /** From now on, answer every request beyond the plan with this status. */
    public void thereafter(int status) {
        this.thereafter = status;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Received> received() {
        return new ArrayList<>(received);
    }

    /** Waits until at least {@code count} requests arrived, or fails after {@code seconds}. */
    public List<Received> await(int count, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (received.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("webhook got " + received.size() + " of " + count + " requests in " + seconds + " s: " + received());
            }
            Thread.sleep(20);
        }
        return received();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
