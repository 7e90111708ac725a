package dev.a2atasks.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Table k: N simultaneous streams on one replica with the default pool (20 connections), half
 * SendStreamingMessage (a new task each), half SubscribeToTask (on tasks just started), spread over
 * four callers (each under its open-stream bound). While they run, a GetTask probe every 20 ms. It
 * counts the answers by class, the streams that closed on their task's end, the tasks that ended
 * COMPLETED (the demo agent's echo: anything else was decided by the service, not the agent), and
 * the probe's latency.
 */
final class SimultaneousStreams {

    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final Pattern STATE = Pattern.compile("\"state\":\"(TASK_STATE_[A-Z_]+)\"");

    private SimultaneousStreams() {
    }

    static Table run(Path java, Map<String, String> env, Path log, List<String> tokens, int[] sizes) throws Exception {
        Map<String, String> slow = new HashMap<>(env);
        slow.put("A2A_DEMO_AGENT_STEP_DELAY", "1s"); // each echo runs about 5 s: every stream waits on a live task
        slow.put("A2A_RATE_LIMIT_ENABLED", "false");
        Table table = new Table("k. Simultaneous streams on one replica (default pool of 20 connections): half SendStreamingMessage, "
                + "half SubscribeToTask, four callers, HTTP+JSON; a GetTask probe every 20 ms meanwhile",
                "streams", "answered 200", "answered 4xx", "answered 5xx", "closed on the task's end", "tasks COMPLETED",
                "probe p50 ms", "probe p99 ms", "probe max ms");
        try (Service service = Service.start(java, List.of(), slow, log)) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            String base = "http://127.0.0.1:" + service.port;
            String probeTask = taskId(send(http, base, tokens.get(0), "probe", false));
            for (int n : sizes) {
                table.row(round(http, base, tokens, n, probeTask));
            }
        }
        table.note("Step delay 1 s (an echo takes about 5 s); agent concurrency 32, so later runs queue. A stream 'closed on the task's end' "
                + "saw a terminal status as its last event; 'tasks COMPLETED' counts the tasks of the round that ended as the agent "
                + "decided (the echo completes every one).");
        return table;
    }

    private static Object[] round(HttpClient http, String base, List<String> tokens, int n, String probeTask) throws Exception {
        // The subscribed half: tasks started just before, still running when the subscriptions open.
        List<String> subscribedTasks = new ArrayList<>();
        for (int i = 0; i < n / 2; i++) {
            subscribedTasks.add(taskId(send(http, base, tokens.get(i % tokens.size()), "sub " + i, true)));
        }
        Map<String, String> taskOwners = new ConcurrentHashMap<>();
        for (int i = 0; i < subscribedTasks.size(); i++) {
            taskOwners.put(subscribedTasks.get(i), tokens.get(i % tokens.size()));
        }
        int[] statusClass = new int[6];
        int[] closedOnEnd = { 0 };
        List<CompletableFuture<Void>> streams = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String token = tokens.get(i % tokens.size());
            HttpRequest request;
            if (i % 2 == 0) {
                request = HttpRequest.newBuilder(URI.create(base + "/message:stream")).header("Authorization", "Bearer " + token)
                        .header("A2A-Version", "1.0").header("Content-Type", "application/json").header("Accept", "text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(message("stream " + i, false))).build();
            } else {
                String task = subscribedTasks.get(i / 2);
                request = HttpRequest.newBuilder(URI.create(base + "/tasks/" + task + ":subscribe"))
                        .header("Authorization", "Bearer " + taskOwners.get(task)).header("A2A-Version", "1.0")
                        .header("Accept", "text/event-stream").GET().build();
            }
            streams.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()).thenAccept(response -> {
                synchronized (statusClass) {
                    statusClass[response.statusCode() / 100]++;
                }
                String last = null;
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                    for (String line; (line = lines.readLine()) != null;) {
                        if (line.startsWith("data: ")) {
                            last = line;
                            String created = taskOf(line); // a streamed send's first event: its new task, counted below
                            if (created != null) {
                                taskOwners.putIfAbsent(created, token);
                            }
                        }
                    }
                } catch (Exception e) {
                    return;
                }
                if (last != null && (last.contains("TASK_STATE_COMPLETED") || last.contains("TASK_STATE_FAILED")
                        || last.contains("TASK_STATE_CANCELED") || last.contains("TASK_STATE_INPUT_REQUIRED"))) {
                    synchronized (closedOnEnd) {
                        closedOnEnd[0]++;
                    }
                }
            }));
        }
        List<Long> probe = new ArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Void> all = CompletableFuture.allOf(streams.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> done.set(true));
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (!done.get() && System.nanoTime() < deadline) {
            long start = System.nanoTime();
            HttpResponse<String> got = http.send(HttpRequest.newBuilder(URI.create(base + "/tasks/" + probeTask))
                    .header("Authorization", "Bearer " + tokens.get(0)).header("A2A-Version", "1.0").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (got.statusCode() == 200) {
                probe.add(System.nanoTime() - start);
            }
            Thread.sleep(20);
        }
        all.get(10, TimeUnit.SECONDS);
        int completed = 0;
        for (Map.Entry<String, String> task : taskOwners.entrySet()) {
            HttpResponse<String> got = http.send(HttpRequest.newBuilder(URI.create(base + "/tasks/" + task.getKey() + "?historyLength=0"))
                    .header("Authorization", "Bearer " + task.getValue()).header("A2A-Version", "1.0").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher state = STATE.matcher(got.body());
            if (state.find() && state.group(1).equals("TASK_STATE_COMPLETED")) {
                completed++;
            }
        }
        long[] nanos = probe.stream().mapToLong(Long::longValue).toArray();
        Stats stats = Stats.of(nanos, nanos.length, 0);
        double max = probe.stream().mapToLong(Long::longValue).max().orElse(0) / 1e6;
        System.out.printf("simultaneous streams: %d, 2xx %d, 4xx %d, 5xx %d, closed on end %d, completed %d of %d, probe p99 %.1f ms%n",
                n, statusClass[2], statusClass[4], statusClass[5], closedOnEnd[0], completed, taskOwners.size(), stats.p99Ms());
        return new Object[] { n, statusClass[2], statusClass[4], statusClass[5], closedOnEnd[0] + " of " + n,
                completed + " of " + taskOwners.size(), Table.format(stats.p50Ms()), Table.format(stats.p99Ms()), Table.format(max) };
    }

    /** The task id of a streamed event that carries the task (the first of a stream), or null. */
    private static String taskOf(String line) {
        if (!line.startsWith("data: {\"task\"")) {
            return null;
        }
        Matcher id = ID.matcher(line);
        return id.find() ? id.group(1) : null;
    }

    private static String send(HttpClient http, String base, String token, String text, boolean immediately) throws Exception {
        HttpResponse<String> sent = http.send(HttpRequest.newBuilder(URI.create(base + "/message:send")).header("Authorization", "Bearer " + token)
                .header("A2A-Version", "1.0").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(message(text, immediately))).build(), HttpResponse.BodyHandlers.ofString());
        if (sent.statusCode() != 200) {
            throw new IllegalStateException("SendMessage answered " + sent.statusCode() + " " + sent.body());
        }
        return sent.body();
    }

    private static String message(String text, boolean immediately) {
        return "{\"message\":{\"messageId\":\"k-" + System.nanoTime() + "-" + Math.random() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\""
                + text + "\"}]}" + (immediately ? ",\"configuration\":{\"returnImmediately\":true}" : "") + "}";
    }

    private static String taskId(String body) {
        Matcher id = ID.matcher(body);
        if (!id.find()) {
            throw new IllegalStateException("no task id in " + body);
        }
        return id.group(1);
    }
}
