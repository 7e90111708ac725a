package dev.a2atasks.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Table n: a flood of SendMessage on one replica with a 1 GB heap while a second replica shares
 * the database (its lease sweep running): 5,000 sends of 100 KB, then 5,000 of 1.4 MB, from 64
 * connections (HTTP+JSON, returnImmediately; the bulk in a data part, since text is capped at
 * 100,000 characters a message). Counts the answers by status (a refusal must be
 * retryable: 503 or 429 with Retry-After), samples the flooded replica's heap in use every
 * second, then waits for every accepted task to end and counts how they ended: the demo agent
 * echoes, so every one must be COMPLETED; a FAILED one was failed by the service (the other
 * replica's sweep, or a run that could not write). Also whether either log shows an
 * OutOfMemoryError.
 */
final class Flood {

    private static final int CONNECTIONS = 64;

    private Flood() {
    }

    static Table run(Path java, Map<String, String> env, Path logA, Path logB, String token, String jdbcUrl, int sends) throws Exception {
        Table table = new Table("n. A flood of SendMessage (returnImmediately) from " + CONNECTIONS + " connections on one replica with "
                + "-Xmx1g, a second replica sharing the database", "messages", "answered 200", "503 (Retry-After)", "429",
                "other", "heap in use max MiB", "heap after GC at the last answer MiB", "RSS max MiB", "accepted tasks ended COMPLETED", "ended FAILED", "not ended in 5 min");
        Map<String, String> configured = new HashMap<>(env);
        configured.put("A2A_RATE_LIMIT_ENABLED", "false");
        try (Service a = Service.start(java, List.of("-Xmx1g"), configured, logA);
                Service b = Service.start(java, List.of("-Xmx1g"), configured, logB)) {
            for (int kib : new int[] { 100, 1434 }) {
                table.row(round(a, token, jdbcUrl, sends, kib, "flood-" + kib));
            }
            String logs = Files.readString(logA) + Files.readString(logB);
            table.note("OutOfMemoryError in either replica's log: " + (logs.contains("OutOfMemoryError") ? "yes" : "no")
                    + ". Bounds at their defaults: a2a.agent.max-queued 1000 runs, a2a.agent.max-queued-bytes 64 MiB, a body at most 2 MB."
                    + " 'heap in use' is sampled every second without forcing a collection (garbage included); the JVM's heap limit is 1 GiB.");
        }
        return table;
    }

    private static Object[] round(Service service, String token, String jdbcUrl, int sends, int kib, String owner) throws Exception {
        String text = "x".repeat(kib * 1024);
        Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
        AtomicInteger missingRetryAfter = new AtomicInteger();
        List<String> accepted = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        AtomicBoolean sending = new AtomicBoolean(true);
        double[] heapMax = { 0 };
        double[] rssMax = { 0 };
        Thread sampler = new Thread(() -> {
            while (sending.get()) {
                try {
                    heapMax[0] = Math.max(heapMax[0], IdleSubscribers.heapUsed(service.process.pid()));
                    rssMax[0] = Math.max(rssMax[0], service.rssMiB());
                    Thread.sleep(1_000);
                } catch (Exception e) {
                    return;
                }
            }
        }, "flood-sampler");
        sampler.start();
        ExecutorService senders = Executors.newFixedThreadPool(CONNECTIONS);
        List<Future<?>> running = new ArrayList<>();
        String url = "http://127.0.0.1:" + service.port + "/message:send";
        for (int c = 0; c < CONNECTIONS; c++) {
            running.add(senders.submit(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(); // one connection per sender
                while (next.getAndIncrement() < sends) {
                    String body = "{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"flood\"},"
                            + "{\"data\":{\"payload\":\"" + text + "\"}}]},\"configuration\":{\"returnImmediately\":true}}";
                    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                            .header("Authorization", "Bearer " + token).header("A2A-Version", "1.0").header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                    statuses.computeIfAbsent(answer.statusCode(), k -> new LongAdder()).increment();
                    if (answer.statusCode() == 200) {
                        int at = answer.body().indexOf("\"id\":\"");
                        accepted.add(answer.body().substring(at + 6, answer.body().indexOf('"', at + 6)));
                    } else if ((answer.statusCode() == 503 || answer.statusCode() == 429) && answer.headers().firstValue("Retry-After").isEmpty()) {
                        missingRetryAfter.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        senders.shutdown();
        double live = IdleSubscribers.heapAfterGc(service.process.pid()); // what the queued runs and their messages hold
        // The runs queued when the last send was answered still go on: keep sampling while they drain.
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        long[] ended;
        while (true) {
            ended = endings(jdbcUrl, accepted);
            if (ended[0] + ended[1] == accepted.size() || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(1_000);
        }
        sending.set(false);
        sampler.join();
        long ok = count(statuses, 200);
        long busy = count(statuses, 503);
        long limited = count(statuses, 429);
        long other = statuses.values().stream().mapToLong(LongAdder::sum).sum() - ok - busy - limited;
        System.out.printf("flood %d KiB: statuses %s, refusals without Retry-After %d, accepted %d%n", kib, statuses, missingRetryAfter.get(),
                accepted.size());
        return new Object[] { sends + " × " + (kib >= 1024 ? String.format("%.1f MB", kib / 1024.0) : kib + " KB"), ok,
                busy + (missingRetryAfter.get() > 0 ? " (" + missingRetryAfter.get() + " without Retry-After)" : ""), limited, other,
                Table.format(heapMax[0]), Table.format(live), Table.format(rssMax[0]), ended[0], ended[1], accepted.size() - ended[0] - ended[1] };
    }

    private static long count(Map<Integer, LongAdder> statuses, int status) {
        LongAdder n = statuses.get(status);
        return n == null ? 0 : n.sum();
    }

    /** Of these tasks: how many are COMPLETED, how many FAILED (by id; the ids are UUIDs, unique across owners). */
    private static long[] endings(String jdbcUrl, List<String> ids) throws Exception {
        if (ids.isEmpty()) {
            return new long[] { 0, 0 };
        }
        List<String> copy;
        synchronized (ids) {
            copy = new ArrayList<>(ids);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT count(*) FILTER (WHERE state = 'TASK_STATE_COMPLETED'),"
                        + " count(*) FILTER (WHERE state = 'TASK_STATE_FAILED') FROM tasks WHERE id IN ('" + String.join("','", copy) + "')")) {
            rows.next();
            return new long[] { rows.getLong(1), rows.getLong(2) };
        }
    }
}
