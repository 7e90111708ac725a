package dev.a2atasks.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.SendMessageResponse;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.proto.v1.TaskState;

/**
 * f. and g.: the write path. SendMessage over gRPC (the demo agent, no delay) answered at once
 * and blocking, beside the SQL floor of the same writes sent straight over JDBC; and how long an
 * agent's status update takes to reach a subscriber, in one process and across two.
 */
final class WritePath {

    private WritePath() {
    }

    /**
     * Table f. {@code main} runs the demo agent at full speed: blocking and streaming sends are
     * timed to the task's end, against the SQL floor of the task, its message and the agent's five
     * updates. {@code sendOnly} is a service whose agent waits before its first step (its runs
     * queue and sleep): returnImmediately sends are timed alone, against the floor of the task
     * and its message; on {@code main} their runs would pile up and take the CPU the sends are
     * measured on. Both services are warmed up on the write path first (the JIT, the pools), and
     * each window starts with no run left of the one before. With a {@code profilePid} (main's),
     * the 8-client blocking load is recorded with JFR (target/bench/writes-blocking-8.jfr), and
     * {@code sendOnlyPid}'s 8-client gRPC sends (writes-immediate-8.jfr); the summaries are added
     * to {@code profiles}.
     */
    static Table sendMessage(Clients main, Clients sendOnly, String bearer, String sendOnlyBearer, boolean quick, long profilePid,
            long sendOnlyPid, List<Table> profiles) throws Exception {
        Duration warmUp = Duration.ofMillis(quick ? 100 : 1500);
        Duration measure = Duration.ofMillis(quick ? 300 : 5000);
        int[] concurrency = quick ? new int[] { 1, 8 } : new int[] { 1, 8, 32 };
        Duration jit = Duration.ofSeconds(quick ? 2 : 20);
        Load.timed(8, Duration.ZERO, jit, () -> send(main, bearer, false));
        Load.timed(8, Duration.ZERO, jit, () -> send(sendOnly, sendOnlyBearer, true));
        Load.timed(8, Duration.ZERO, jit.dividedBy(2), () -> sendHttp(sendOnly, sendOnlyBearer));
        Table table = new Table("f. SendMessage (demo agent, no delay): a new task per request, loopback",
                "mode", "clients", "req/s", "p50 ms", "p99 ms", "throughput / SQL floor");
        for (int c : concurrency) {
            drained(main);
            Stats immediateFloor = Load.timed(c, warmUp, measure, () -> unchecked(() -> submitFloor(main, false)));
            Stats immediate = profiled(c == 8 ? sendOnlyPid : 0, "SendMessage returnImmediately, gRPC, 8 clients (the send alone)",
                    "writes-immediate-8", profiles, () -> Load.timed(c, warmUp, measure, () -> send(sendOnly, sendOnlyBearer, true)));
            Stats immediateHttp = Load.timed(c, warmUp, measure, () -> sendHttp(sendOnly, sendOnlyBearer));
            Stats immediateHttpJdk = Load.timed(c, warmUp, measure, () -> sendHttpJdkClient(sendOnly, sendOnlyBearer));
            Stats blockingFloor = Load.timed(c, warmUp, measure, () -> unchecked(() -> submitFloor(main, true)));
            Stats blocking = profiled(c == 8 ? profilePid : 0, "SendMessage blocking, gRPC, 8 clients", "writes-blocking-8",
                    profiles, () -> Load.timed(c, warmUp, measure, () -> send(main, bearer, false)));
            drained(main);
            Stats streaming = Load.timed(c, warmUp, measure, () -> stream(main, bearer));
            drained(main);
            table.row("returnImmediately, gRPC (the send alone)", c, immediate.requestsPerSecond(), immediate.p50Ms(), immediate.p99Ms(),
                    percent(immediate, immediateFloor));
            table.row("returnImmediately, HTTP+JSON (the send alone)", c, immediateHttp.requestsPerSecond(), immediateHttp.p50Ms(),
                    immediateHttp.p99Ms(), percent(immediateHttp, immediateFloor));
            table.row("returnImmediately, HTTP+JSON, from the JDK's HttpClient", c, immediateHttpJdk.requestsPerSecond(),
                    immediateHttpJdk.p50Ms(), immediateHttpJdk.p99Ms(), percent(immediateHttpJdk, immediateFloor));
            table.row("SQL floor: task + message", c, immediateFloor.requestsPerSecond(), immediateFloor.p50Ms(), immediateFloor.p99Ms(),
                    "100%");
            table.row("blocking (until COMPLETED), gRPC", c, blocking.requestsPerSecond(), blocking.p50Ms(), blocking.p99Ms(),
                    percent(blocking, blockingFloor));
            table.row("SendStreamingMessage to its last event, gRPC", c, streaming.requestsPerSecond(), streaming.p50Ms(),
                    streaming.p99Ms(), percent(streaming, blockingFloor));
            table.row("SQL floor: + 5 agent updates", c, blockingFloor.requestsPerSecond(), blockingFloor.p50Ms(), blockingFloor.p99Ms(),
                    "100%");
        }
        table.note("The floors send the same rows straight over JDBC, one connection per client thread: the task and its"
                + " first message in one transaction; for blocking, then the demo agent's five updates (WORKING with its message,"
                + " three chunks of one artifact, COMPLETED with its message), each one transaction that locks the task row, writes"
                + " the message or the artifact, updates the task, inserts the event and NOTIFYs."
                + " The service also runs the agent, waits for the task to settle and reads it back (history 20, artifacts)."
                + " The sends alone are measured on a second service whose demo agent waits 10 minutes before its first step;"
                + " its tasks are removed afterwards. Both services run the write path for " + jit.toSeconds() + " s at 8 clients"
                + " before the first window; every window starts with no task of the main service still running.");
        return table;
    }

    /**
     * Waits until no task of the main service's bench caller is still running (the runs of an
     * earlier window). The floor's tasks (owner {@code floor}) are leased like the service's but
     * never run: their leases last two hours, so no sweeper fails them during the windows that
     * follow, and they are deleted with the table.
     */
    private static void drained(Clients main) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        try (Connection c = main.connect(); var s = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM tasks WHERE tenant = 'benchw' AND owner <> 'floor' AND run_id IS NOT NULL")) {
                    rs.next();
                    if (rs.getLong(1) == 0) {
                        return;
                    }
                }
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("runs of the bench still going after 2 minutes");
    }

    /** A SendStreamingMessage read to its end (the task's last event); a stream that ends other than COMPLETED is an error. */
    static Callable<?> stream(Clients clients, String bearer) {
        Clients.Grpc grpc = clients.new Grpc(bearer);
        return new Clients.Request() {
            @Override
            public Object call() {
                Iterator<StreamResponse> events = grpc.stub.withDeadlineAfter(60, TimeUnit.SECONDS)
                        .sendStreamingMessage(request("bench", false));
                TaskState last = TaskState.TASK_STATE_UNSPECIFIED;
                while (events.hasNext()) {
                    StreamResponse event = events.next();
                    if (event.hasStatusUpdate()) {
                        last = event.getStatusUpdate().getStatus().getState();
                    } else if (event.hasTask()) {
                        last = event.getTask().getStatus().getState();
                    }
                }
                if (last != TaskState.TASK_STATE_COMPLETED) {
                    throw new IllegalStateException("the stream ended at " + last);
                }
                return last;
            }

            @Override
            public void close() throws InterruptedException {
                grpc.close();
            }
        };
    }

    /** SendMessage returnImmediately over HTTP+JSON ({@code POST /message:send}). */
    /** A returnImmediately send over HTTP+JSON from {@link Http1}, one keep-alive connection per load thread. */
    static Clients.Request sendHttp(Clients clients, String bearer) {
        Http1 http = new Http1(clients.host, clients.port);
        String headers = "Authorization: Bearer " + bearer + "\r\nA2A-Version: 1.0\r\nContent-Type: application/json\r\n";
        return new Clients.Request() {
            @Override
            public Object call() throws Exception {
                byte[] body = ("{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":"
                        + "\"bench\"}]},\"configuration\":{\"returnImmediately\":true}}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                Http1.Response response = http.exchange("POST", "/message:send", headers, body);
                if (response.status() != 200) {
                    throw new IllegalStateException("HTTP " + response.status() + ": " + response.text());
                }
                return response;
            }

            @Override
            public void close() throws Exception {
                http.close();
            }
        };
    }

    /** The same send from the JDK's HttpClient (what table f used until 2026-12-07), for the row beside it. */
    static Callable<?> sendHttpJdkClient(Clients clients, String bearer) {
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        return () -> {
            String body = "{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"bench\"}]},"
                    + "\"configuration\":{\"returnImmediately\":true}}";
            java.net.http.HttpResponse<String> response = http.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://" + clients.host + ":" + clients.port + "/message:send"))
                    .header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0").header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.body());
            }
            return response;
        };
    }

    private static Stats profiled(long pid, String label, String file, List<Table> profiles, Callable<Stats> load) throws Exception {
        if (pid == 0) {
            return load.call();
        }
        Stats[] result = new Stats[1];
        profiles.add(Profile.during(pid, label, java.nio.file.Path.of("target/bench", file + ".jfr"), () -> result[0] = load.call()));
        return result[0];
    }

    private static String percent(Stats s, Stats floor) {
        return String.format("%.0f%%", 100 * s.requestsPerSecond() / floor.requestsPerSecond());
    }

    static Callable<?> send(Clients clients, String bearer, boolean returnImmediately) {
        Clients.Grpc grpc = clients.new Grpc(bearer);
        return new Clients.Request() {
            @Override
            public Object call() {
                SendMessageResponse response = grpc.stub.withDeadlineAfter(60, TimeUnit.SECONDS).sendMessage(request("bench", returnImmediately));
                TaskState state = response.getTask().getStatus().getState();
                if (!returnImmediately && state != TaskState.TASK_STATE_COMPLETED) {
                    throw new IllegalStateException("blocking SendMessage answered " + state);
                }
                return response;
            }

            @Override
            public void close() throws InterruptedException {
                grpc.close();
            }
        };
    }

    static SendMessageRequest request(String text, boolean returnImmediately) {
        return SendMessageRequest.newBuilder()
                .setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER)
                        .addParts(Part.newBuilder().setText(text)))
                .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(returnImmediately))
                .build();
    }

    /**
     * The rows the service writes for a new task (and, with {@code agent}, for the demo agent's five
     * updates: WORKING with its message, three chunks of one artifact, COMPLETED with its message),
     * over JDBC, one transaction each, as few statements as the rows allow.
     */
    private static Clients.Request submitFloor(Clients clients, boolean agent) throws Exception {
        Connection c = clients.connect();
        c.setAutoCommit(false);
        PreparedStatement task = c.prepareStatement("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts, next_seq,"
                + " origin_message_id, run_id, run_input_seq, lease_owner, lease_expires_at) VALUES ('benchw', 'floor', ?, ?,"
                + " 'TASK_STATE_SUBMITTED', now(), 1, ?, gen_random_uuid(), 0, 'bench', now() + interval '2 hours') RETURNING pk");
        PreparedStatement message = c.prepareStatement("INSERT INTO messages (task_pk, owner, seq, message_id, role, parts, metadata,"
                + " extensions, reference_task_ids, created_at) VALUES (?, 'floor', ?, ?, ?, CAST(? AS jsonb), NULL, '[]', '[]', now())");
        PreparedStatement lock = c.prepareStatement("SELECT pk FROM tasks WHERE tenant = 'benchw' AND owner = 'floor' AND id = ? FOR UPDATE");
        PreparedStatement status = c.prepareStatement("UPDATE tasks SET state = ?, status_ts = now(), status_message = CAST(? AS jsonb),"
                + " updated_at = now(), next_seq = next_seq + 1, next_event_seq = next_event_seq + 1,"
                + " run_id = CASE WHEN ? THEN NULL ELSE run_id END, lease_owner = CASE WHEN ? THEN NULL ELSE lease_owner END,"
                + " lease_expires_at = CASE WHEN ? THEN NULL ELSE lease_expires_at END WHERE pk = ?");
        PreparedStatement artifact = c.prepareStatement("INSERT INTO artifacts AS a (task_pk, owner, artifact_id, ord, name, parts,"
                + " metadata, extensions) VALUES (?, 'floor', 'echo', (SELECT coalesce(max(o.ord) + 1, 0) FROM artifacts o"
                + " WHERE o.task_pk = ? AND o.owner = 'floor'), 'echo', CAST(? AS jsonb), NULL, '[]')"
                + " ON CONFLICT (task_pk, artifact_id, owner) DO UPDATE SET parts = a.parts || EXCLUDED.parts");
        PreparedStatement touched = c.prepareStatement("UPDATE tasks SET updated_at = now(), next_event_seq = next_event_seq + 1 WHERE pk = ?");
        PreparedStatement event = c.prepareStatement("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload, created_at,"
                + " input_seq) VALUES ('benchw', 'floor', ?, ?, ?, CAST(? AS jsonb), now(), 0)");
        PreparedStatement notify = c.prepareStatement("SELECT pg_notify('a2a_task_events', ?)");
        String parts = "[{\"text\":\"bench\"}]";
        return new Clients.Request() {
            @Override
            public Object call() throws Exception {
                String id = UUID.randomUUID().toString();
                task.setString(1, id);
                task.setString(2, id);
                task.setString(3, id);
                long pk;
                try (ResultSet rs = task.executeQuery()) {
                    rs.next();
                    pk = rs.getLong(1);
                }
                insertMessage(pk, 0, "ROLE_USER", parts);
                c.commit();
                if (agent) {
                    for (int step = 0; step < 5; step++) {
                        lock.setString(1, id);
                        lock.executeQuery().close();
                        String kind = "STATUS_UPDATE";
                        if (step == 0 || step == 4) {
                            boolean last = step == 4;
                            String said = "[{\"text\":\"" + (last ? "Done" : "Working on it") + "\"}]";
                            insertMessage(pk, last ? 2 : 1, "ROLE_AGENT", said);
                            status.setString(1, last ? "TASK_STATE_COMPLETED" : "TASK_STATE_WORKING");
                            status.setString(2, "{\"role\":\"ROLE_AGENT\",\"parts\":" + said + "}");
                            status.setBoolean(3, last);
                            status.setBoolean(4, last);
                            status.setBoolean(5, last);
                            status.setLong(6, pk);
                            status.executeUpdate();
                        } else {
                            kind = "ARTIFACT_UPDATE";
                            artifact.setLong(1, pk);
                            artifact.setLong(2, pk);
                            artifact.setString(3, "[{\"text\":\"be\",\"mediaType\":\"text/plain\"}]");
                            artifact.executeUpdate();
                            touched.setLong(1, pk);
                            touched.executeUpdate();
                        }
                        event.setString(1, id);
                        event.setLong(2, step);
                        event.setString(3, kind);
                        event.setString(4, "{\"statusUpdate\":{\"taskId\":\"" + id + "\",\"contextId\":\"" + id + "\",\"status\":"
                                + "{\"state\":\"TASK_STATE_WORKING\",\"message\":{\"messageId\":\"" + id + "\",\"role\":\"ROLE_AGENT\","
                                + "\"parts\":[{\"text\":\"Working on it\"}]},\"timestamp\":\"2026-12-05T09:00:00.000001Z\"}}}"); // an event's size
                        event.executeUpdate();
                        notify.setString(1, Long.toString(pk));
                        notify.executeQuery().close();
                        c.commit();
                    }
                }
                return pk;
            }

            private void insertMessage(long pk, long seq, String role, String json) throws Exception {
                message.setLong(1, pk);
                message.setLong(2, seq);
                message.setString(3, UUID.randomUUID().toString());
                message.setString(4, role);
                message.setString(5, json);
                message.executeUpdate();
            }

            @Override
            public void close() throws Exception {
                c.close();
            }
        };
    }

    /**
     * g. Status updates timed from their status timestamp (set by the writer, same machine clock) to
     * their arrival at a gRPC subscriber: the agent runs on {@code agentSide}, the subscriber reads
     * from {@code subscriberSide}; one process when they are the same.
     */
    static Stats eventLatency(Clients agentSide, Clients subscriberSide, String bearer, int tasks) throws Exception {
        List<Long> nanos = new ArrayList<>();
        try (Clients.Grpc sender = agentSide.new Grpc(bearer); Clients.Grpc subscriber = subscriberSide.new Grpc(bearer)) {
            for (int i = 0; i < tasks; i++) {
                String id = sender.stub.sendMessage(request("latency", true)).getTask().getId();
                Iterator<StreamResponse> events = subscriber.stub.withDeadlineAfter(60, TimeUnit.SECONDS)
                        .subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(id).build());
                boolean first = true;
                while (true) {
                    StreamResponse event;
                    try {
                        if (!events.hasNext()) {
                            break;
                        }
                        event = events.next();
                    } catch (io.grpc.StatusRuntimeException finished) {
                        if (finished.getStatus().getCode() != io.grpc.Status.Code.FAILED_PRECONDITION) {
                            throw finished;
                        }
                        break; // the run ended before the subscription began: no updates to time
                    }
                    if (first) {
                        first = false; // the snapshot: not an update
                        continue;
                    }
                    if (event.hasStatusUpdate()) {
                        var ts = event.getStatusUpdate().getStatus().getTimestamp();
                        Instant at = Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos());
                        long sent = at.getEpochSecond() * 1_000_000_000L + at.getNano();
                        Instant now = Instant.now();
                        long delta = (now.getEpochSecond() * 1_000_000_000L + now.getNano()) - sent;
                        if (delta >= 0) {
                            nanos.add(delta);
                        }
                    }
                }
            }
        }
        long[] all = nanos.stream().mapToLong(Long::longValue).toArray();
        return Stats.of(all, all.length, 1);
    }

    /**
     * Followed runs as {@link #eventLatency} makes them, unmeasured, from {@code threads} clients at
     * once (half of them subscribing on each side), {@code tasksEach} each: the code paths of a
     * followed run compiled as in a replica that has served a while. How many tasks it ran.
     */
    static int eventLatencyWarmUp(Clients agentSide, Clients otherSide, String bearer, int threads, int tasksEach) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<Stats>> runs = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Clients subscriberSide = i % 2 == 0 ? agentSide : otherSide;
                runs.add(pool.submit(() -> eventLatency(agentSide, subscriberSide, bearer, tasksEach)));
            }
            for (var run : runs) {
                run.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        return threads * tasksEach;
    }

    private static Callable<?> unchecked(Callable<Callable<?>> make) {
        try {
            return make.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The environment of a service whose demo agent pauses between steps, so a subscriber can follow it live. */
    static Map<String, String> withStepDelay(Map<String, String> env, String delay) {
        Map<String, String> copy = new java.util.HashMap<>(env);
        copy.put("A2A_DEMO_AGENT_STEP_DELAY", delay);
        return copy;
    }
}
