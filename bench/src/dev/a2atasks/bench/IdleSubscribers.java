package dev.a2atasks.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Table j: 100 subscribers on one task that stays WORKING for {@code minutes} (the demo agent's
 * slow steps stretched to a quarter of that each), heap after a full GC and RSS of the service
 * sampled every minute: with one wake-up registration per waiter, the heap must stay flat while
 * nothing happens. Then the task is canceled and every stream must close.
 */
final class IdleSubscribers {

    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private IdleSubscribers() {
    }

    static Table run(Path java, Map<String, String> env, Path log, String token, int minutes, int subscribers) throws Exception {
        Map<String, String> slow = new java.util.HashMap<>(env);
        slow.put("A2A_DEMO_AGENT_SLOW_STEP_DELAY", (minutes * 60 / 4 + 30) + "s");
        slow.put("A2A_RATE_LIMIT_ENABLED", "false");
        Table table = new Table("j. Idle subscribers: " + subscribers + " SSE subscribers on one WORKING task for " + minutes
                + " minutes (heap used after a full GC, RSS)", "minute", "open streams", "heap MiB after GC", "RSS MiB");
        try (Service service = Service.start(java, List.of(), slow, log)) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            String base = "http://127.0.0.1:" + service.port;
            HttpResponse<String> sent = http.send(HttpRequest.newBuilder(URI.create(base + "/message:send"))
                    .header("Authorization", "Bearer " + token).header("A2A-Version", "1.0").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"message\":{\"messageId\":\"idle-" + System.nanoTime()
                            + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"slow idle work\"}]},\"configuration\":{\"returnImmediately\":true}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            Matcher id = Pattern.compile("\"id\":\"([^\"]+)\"").matcher(sent.body());
            if (sent.statusCode() != 200 || !id.find()) {
                throw new IllegalStateException("SendMessage answered " + sent.statusCode() + " " + sent.body());
            }
            String taskId = id.group(1);
            AtomicInteger open = new AtomicInteger();
            List<CompletableFuture<Long>> streams = new ArrayList<>();
            for (int i = 0; i < subscribers; i++) {
                HttpRequest subscribe = HttpRequest.newBuilder(URI.create(base + "/tasks/" + taskId + ":subscribe"))
                        .header("Authorization", "Bearer " + token).header("A2A-Version", "1.0").header("Accept", "text/event-stream")
                        .GET().build();
                open.incrementAndGet();
                streams.add(http.sendAsync(subscribe, HttpResponse.BodyHandlers.ofLines())
                        .thenApplyAsync(response -> response.body().filter(line -> line.startsWith("data: ")).count())
                        .whenComplete((events, failure) -> open.decrementAndGet()));
            }
            Thread.sleep(5_000);
            for (int minute = 0; minute <= minutes; minute++) {
                if (minute > 0) {
                    Thread.sleep(60_000);
                }
                table.row(minute, open.get(), heapAfterGc(service.process.pid()), service.rssMiB());
                System.out.printf("idle subscribers: minute %d, %d open, heap %.1f MiB%n", minute, open.get(), heapAfterGc(service.process.pid()));
            }
            http.send(HttpRequest.newBuilder(URI.create(base + "/tasks/" + taskId + ":cancel")).header("Authorization", "Bearer " + token)
                    .header("A2A-Version", "1.0").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            CompletableFuture.allOf(streams.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            table.note("After the cancel every stream closed (" + open.get() + " open); heap after GC "
                    + Table.format(heapAfterGc(service.process.pid())) + " MiB. The streams' poll interval is the default 1 s.");
        }
        return table;
    }

    /** Heap in use right after a full collection, from jcmd. */
    static double heapAfterGc(long pid) throws Exception {
        jcmd(pid, "GC.run");
        Matcher used = USED.matcher(jcmd(pid, "GC.heap_info"));
        if (!used.find()) {
            throw new IllegalStateException("no heap figure from jcmd " + pid);
        }
        return Long.parseLong(used.group(1)) / 1024.0;
    }

    /** Heap in use now, garbage included (no collection forced), in MiB. */
    static double heapUsed(long pid) throws Exception {
        Matcher used = USED.matcher(jcmd(pid, "GC.heap_info"));
        if (!used.find()) {
            throw new IllegalStateException("no heap figure from jcmd " + pid);
        }
        return Long.parseLong(used.group(1)) / 1024.0;
    }

    private static String jcmd(long pid, String command) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        process.waitFor(Duration.ofSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
        return out;
    }
}
