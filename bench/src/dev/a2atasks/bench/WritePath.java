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
     * Table f; with a {@code profilePid}, the 8-client loads of the service are recorded with JFR
     * (target/bench/writes-*.jfr) and summarized in tables of their own, added to {@code profiles}.
     */
    static Table sendMessage(Clients clients, String bearer, boolean quick, long profilePid, List<Table> profiles) throws Exception {
        Duration warmUp = Duration.ofMillis(quick ? 100 : 1500);
        Duration measure = Duration.ofMillis(quick ? 300 : 5000);
        int[] concurrency = quick ? new int[] { 1, 8 } : new int[] { 1, 8, 32 };
        Table table = new Table("f. SendMessage over gRPC (demo agent, no delay): a new task per request, loopback",
                "mode", "clients", "req/s", "p50 ms", "p99 ms", "throughput / SQL floor");
        for (int c : concurrency) {
            Stats immediateFloor = Load.timed(c, warmUp, measure, () -> unchecked(() -> submitFloor(clients, false)));
            Stats immediate = profiled(c == 8 ? profilePid : 0, "SendMessage returnImmediately, gRPC, 8 clients", "writes-immediate-8",
                    profiles, () -> Load.timed(c, warmUp, measure, () -> send(clients, bearer, true)));
            Stats blockingFloor = Load.timed(c, warmUp, measure, () -> unchecked(() -> submitFloor(clients, true)));
            Stats blocking = profiled(c == 8 ? profilePid : 0, "SendMessage blocking, gRPC, 8 clients", "writes-blocking-8",
                    profiles, () -> Load.timed(c, warmUp, measure, () -> send(clients, bearer, false)));
            table.row("returnImmediately", c, immediate.requestsPerSecond(), immediate.p50Ms(), immediate.p99Ms(),
                    percent(immediate, immediateFloor));
            table.row("SQL floor: task + message", c, immediateFloor.requestsPerSecond(), immediateFloor.p50Ms(), immediateFloor.p99Ms(),
                    "100%");
            table.row("blocking (until COMPLETED)", c, blocking.requestsPerSecond(), blocking.p50Ms(), blocking.p99Ms(),
                    percent(blocking, blockingFloor));
            table.row("SQL floor: + 5 agent updates", c, blockingFloor.requestsPerSecond(), blockingFloor.p50Ms(), blockingFloor.p99Ms(),
                    "100%");
        }
        table.note("The floors send the same rows straight over JDBC, one connection per client thread: the task and its"
                + " first message in one transaction; for blocking, then the demo agent's five updates (WORKING, three artifact"
                + " chunks, COMPLETED), each one transaction that locks the task row, writes its row and its event, and NOTIFYs."
                + " The service also runs the agent, waits for the task to settle and reads it back (history 20, artifacts).");
        return table;
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

    /** The rows the service writes for a new task (and, with {@code agent}, for the demo agent's five updates), over JDBC. */
    private static Clients.Request submitFloor(Clients clients, boolean agent) throws Exception {
        Connection c = clients.connect();
        c.setAutoCommit(false);
        PreparedStatement task = c.prepareStatement("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts, next_seq,"
                + " lease_owner, lease_expires_at) VALUES ('benchw', 'floor', ?, ?, 'TASK_STATE_SUBMITTED', now(), 1, 'bench',"
                + " now() + interval '30 seconds') RETURNING pk");
        PreparedStatement message = c.prepareStatement("INSERT INTO messages (task_pk, seq, message_id, role, parts, created_at)"
                + " VALUES (?, ?, ?, 'ROLE_USER', '[{\"text\":\"bench\"}]', now())");
        PreparedStatement lock = c.prepareStatement("SELECT pk FROM tasks WHERE tenant = 'benchw' AND owner = 'floor' AND id = ? FOR UPDATE");
        PreparedStatement update = c.prepareStatement("UPDATE tasks SET state = ?, status_ts = now(), updated_at = now(),"
                + " next_event_seq = next_event_seq + 1 WHERE pk = ?");
        PreparedStatement event = c.prepareStatement("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload)"
                + " VALUES ('benchw', 'floor', ?, ?, 'STATUS_UPDATE', '{\"statusUpdate\":{}}')");
        PreparedStatement notify = c.prepareStatement("SELECT pg_notify('a2a_task_events', ?)");
        return new Clients.Request() {
            @Override
            public Object call() throws Exception {
                String id = UUID.randomUUID().toString();
                task.setString(1, id);
                task.setString(2, id);
                long pk;
                try (ResultSet rs = task.executeQuery()) {
                    rs.next();
                    pk = rs.getLong(1);
                }
                message.setLong(1, pk);
                message.setLong(2, 0);
                message.setString(3, id);
                message.executeUpdate();
                c.commit();
                if (agent) {
                    String[] states = { "TASK_STATE_WORKING", "TASK_STATE_WORKING", "TASK_STATE_WORKING", "TASK_STATE_WORKING",
                            "TASK_STATE_COMPLETED" };
                    for (int i = 0; i < states.length; i++) {
                        lock.setString(1, id);
                        lock.executeQuery().close();
                        update.setString(1, states[i]);
                        update.setLong(2, pk);
                        update.executeUpdate();
                        event.setString(1, id);
                        event.setLong(2, i);
                        event.executeUpdate();
                        notify.setString(1, Long.toString(pk));
                        notify.executeQuery().close();
                        c.commit();
                    }
                }
                return pk;
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
