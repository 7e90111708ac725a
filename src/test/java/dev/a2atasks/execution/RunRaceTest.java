package dev.a2atasks.execution;

import static dev.a2atasks.execution.WritePathParityTest.message;
import static dev.a2atasks.execution.WritePathParityTest.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.task.store.Lease;
import dev.a2atasks.task.store.RunRef;
import dev.a2atasks.task.store.RunWrites;
import dev.a2atasks.task.store.TaskClosedException;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/**
 * The write path under races, against the real service and PostgreSQL: one run per task at a
 * time (proved from the event log, where every event names the input its run answers), messages
 * sent during a run queued and answered in order, cancel racing completion, retried first
 * messages, and a run fenced out once its task is no longer its own.
 */
@QuarkusTest
class RunRaceTest extends BindingTest {

    private static final String TENANT = "RunRaceTest";
    private static final SendMessageConfiguration AT_ONCE = SendMessageConfiguration.newBuilder().setReturnImmediately(true).build();

    @Inject
    RunWrites runs;

    @Test
    void messagesSentDuringARunAreQueuedAndEachGetsItsOwnRunInOrder() throws Exception {
        db.clearTenant(TENANT);
        String bearer = Tokens.valid(TENANT, "queue");
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(bearer);
            List<String> ids = parallel(100, round -> {
                // Each run asks for input (after a 200 ms step): every queued message gets a turn of its own.
                Task task = stub.sendMessage(SendMessageRequest.newBuilder().setMessage(message("slow input 1", null, null))
                        .setConfiguration(AT_ONCE).build()).getTask();
                List<Future<?>> followUps = new ArrayList<>();
                ExecutorService two = Executors.newFixedThreadPool(2);
                for (String text : List.of("slow input 2", "slow input 3")) {
                    followUps.add(two.submit(() -> stub.sendMessage(SendMessageRequest.newBuilder()
                            .setMessage(message(text, task.getId(), null)).setConfiguration(AT_ONCE).build())));
                }
                for (Future<?> followUp : followUps) {
                    followUp.get(30, TimeUnit.SECONDS);
                }
                two.shutdown();
                return task.getId();
            });
            for (String id : ids) {
                awaitState(stub, id, TaskState.TASK_STATE_INPUT_REQUIRED, 3);
                long pk = db.queryLong("SELECT pk FROM tasks WHERE tenant = 'RunRaceTest' AND id = '" + id + "'");
                List<Long> userSeqs = longs("SELECT seq FROM messages WHERE task_pk = " + pk + " AND role = 'ROLE_USER' ORDER BY seq");
                assertEquals(3, userSeqs.size(), id);
                // Never two runs at once: the runs' events come in blocks, one input after another, each block
                // opened by its WORKING and closed by its INPUT_REQUIRED, and every user message had a run.
                List<String> runs = Arrays.asList(db.queryText("SELECT input_seq || ':' || (payload->'statusUpdate'->'status'->>'state')"
                        + " FROM task_events WHERE tenant = 'RunRaceTest' AND task_id = '" + id + "' AND kind = 'STATUS_UPDATE' ORDER BY seq")
                        .split("\n"));
                // (The first run starts with the task, SUBMITTED, which is the task's snapshot rather than an event.)
                List<String> expected = userSeqs.stream().flatMap(seq -> (seq == 0 ? List.of("0:TASK_STATE_INPUT_REQUIRED")
                        : List.of(seq + ":TASK_STATE_WORKING", seq + ":TASK_STATE_INPUT_REQUIRED")).stream()).toList();
                assertEquals(expected, runs, id);
                // The user messages keep their order of arrival, each answered after it arrived.
                List<String> texts = Arrays.asList(db.queryText("SELECT role || ':' || (parts->0->>'text') FROM messages WHERE task_pk = "
                        + pk + " ORDER BY seq").split("\n"));
                assertEquals("ROLE_USER:slow input 1", texts.get(0), texts.toString());
                assertEquals(3, texts.stream().filter(t -> t.startsWith("ROLE_AGENT:")).count(), texts.toString());
            }
        }
    }

    @Test
    void cancelRacingCompletionLeavesOneEndAndNothingAfterIt() throws Exception {
        db.clearTenant(TENANT);
        String bearer = Tokens.valid(TENANT, "cancel");
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(bearer);
            List<String> ids = parallel(100, round -> {
                Task task = stub.sendMessage(SendMessageRequest.newBuilder().setMessage(message("quick " + round, null, null))
                        .setConfiguration(AT_ONCE).build()).getTask();
                try {
                    stub.cancelTask(CancelTaskRequest.newBuilder().setId(task.getId()).build());
                } catch (StatusRuntimeException lost) { // completed first: TaskNotCancelable
                    assertEquals("FAILED_PRECONDITION", lost.getStatus().getCode().name(), lost.toString());
                }
                return task.getId();
            });
            for (String id : ids) {
                List<String> states = Arrays.asList(db.queryText("SELECT payload->'statusUpdate'->'status'->>'state' FROM task_events"
                        + " WHERE tenant = 'RunRaceTest' AND task_id = '" + id + "' AND kind = 'STATUS_UPDATE' ORDER BY seq").split("\n"));
                String last = states.get(states.size() - 1);
                assertTrue(last.equals("TASK_STATE_COMPLETED") || last.equals("TASK_STATE_CANCELED"), states.toString());
                assertEquals(1, states.stream().filter(s -> s.equals("TASK_STATE_COMPLETED") || s.equals("TASK_STATE_CANCELED")).count(),
                        states.toString());
                long lastSeq = db.queryLong("SELECT max(seq) FROM task_events WHERE tenant = 'RunRaceTest' AND task_id = '" + id + "'");
                assertEquals(lastSeq, db.queryLong("SELECT seq FROM task_events WHERE tenant = 'RunRaceTest' AND task_id = '" + id
                        + "' AND payload->'statusUpdate'->'status'->>'state' = '" + last + "'"), "no event after the end: " + id);
                assertEquals(last, db.queryText("SELECT state FROM tasks WHERE tenant = 'RunRaceTest' AND id = '" + id + "'").trim());
                assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = 'RunRaceTest' AND id = '" + id
                        + "' AND (run_id IS NOT NULL OR lease_owner IS NOT NULL)"));
            }
        }
    }

    @Test
    void fiftyRetriesOfOneFirstMessageMakeOneTaskAndOneRun() throws Exception {
        db.clearTenant(TENANT);
        String bearer = Tokens.valid(TENANT, "retry");
        Message first = message("retried", null, null);
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(bearer);
            List<String> ids = parallel(50, round -> stub.sendMessage(request(first)).getTask().getId());
            assertEquals(1, Set.copyOf(ids).size(), ids.toString());
            assertEquals(1, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = 'RunRaceTest' AND owner = 'retry'"));
            assertEquals(1, db.queryLong("SELECT count(*) FROM task_events WHERE tenant = 'RunRaceTest' AND owner = 'retry'"
                    + " AND payload->'statusUpdate'->'status'->>'state' = 'TASK_STATE_COMPLETED'"), "one run");
            // The same id from another caller is another caller's first message.
            String other = channels.stub(Tokens.valid(TENANT, "retry-2")).sendMessage(request(first)).getTask().getId();
            assertTrue(!other.equals(ids.get(0)));

            // Retries of a message that continues a task: stored once, answered by one run.
            Task asked = stub.sendMessage(request(message("input wanted", null, null))).getTask();
            Message answer = message("the answer", asked.getId(), null);
            parallel(50, round -> stub.sendMessage(request(answer)).getTask().getId());
            long pk = db.queryLong("SELECT pk FROM tasks WHERE tenant = 'RunRaceTest' AND id = '" + asked.getId() + "'");
            assertEquals(1, db.queryLong("SELECT count(*) FROM messages WHERE task_pk = " + pk + " AND message_id = '"
                    + answer.getMessageId() + "'"));
            assertEquals(1, db.queryLong("SELECT count(*) FROM task_events WHERE tenant = 'RunRaceTest' AND task_id = '" + asked.getId()
                    + "' AND payload->'statusUpdate'->'status'->>'state' = 'TASK_STATE_COMPLETED'"));
        }
    }

    @Test
    void aRunWhoseTaskWasTakenOverCannotWrite() throws Exception {
        db.clearTenant(TENANT);
        String bearer = Tokens.valid(TENANT, "fence");
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(bearer);
            Task task = stub.sendMessage(SendMessageRequest.newBuilder().setMessage(message("slow work", null, null))
                    .setConfiguration(AT_ONCE).build()).getTask();
            String where = " FROM tasks WHERE tenant = 'RunRaceTest' AND id = '" + task.getId() + "'";
            UUID fenced = UUID.fromString(db.queryText("SELECT run_id" + where).trim());
            // Another run takes the task over (as one would after this run's lease expired).
            db.execute("UPDATE tasks SET run_id = '" + UUID.randomUUID() + "' WHERE tenant = 'RunRaceTest' AND id = '" + task.getId() + "'");
            long events = db.queryLong("SELECT next_event_seq" + where);

            Caller caller = new Caller(TENANT, "fence");
            Throwable refused = assertThrows(Throwable.class, () -> VertxContextSupport.subscribeAndAwait(() -> runs.recordStatus(
                    new RunRef(caller, task.getId(), task.getContextId(), fenced),
                    TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED).build(), new Lease("test", Duration.ofSeconds(30)))));
            assertTrue(refused instanceof TaskClosedException, refused.toString());

            // The demo agent, fenced out the same way, stops: nothing more is written by it.
            Thread.sleep(1_500);
            assertEquals(events, db.queryLong("SELECT next_event_seq" + where));
            String state = db.queryText("SELECT state" + where).trim();
            assertTrue(state.equals("TASK_STATE_SUBMITTED") || state.equals("TASK_STATE_WORKING"), state);
        }
    }

    private void awaitState(A2AServiceGrpc.A2AServiceBlockingStub stub, String id, TaskState state, int agentMessages) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String where = " FROM tasks t WHERE t.tenant = 'RunRaceTest' AND t.id = '" + id + "'";
        while (System.nanoTime() < deadline) {
            if (db.queryLong("SELECT count(*)" + where + " AND t.state = '" + state.name() + "' AND t.run_id IS NULL AND t.queued_inputs = 0"
                    + " AND (SELECT count(*) FROM messages m WHERE m.task_pk = t.pk AND m.owner = t.owner AND m.role = 'ROLE_AGENT') = " + agentMessages) == 1) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("task " + id + " did not reach " + state + ": " + db.queryText("SELECT state || ' ' || queued_inputs" + where));
    }

    private List<Long> longs(String sql) {
        String text = db.queryText(sql).trim();
        return text.isEmpty() ? List.of() : Arrays.stream(text.split("\n")).map(Long::parseLong).collect(Collectors.toList());
    }

    /** Runs {@code rounds} rounds, 16 at a time; answers their results in round order. */
    private static <T> List<T> parallel(int rounds, RoundBody<T> body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                int round = i;
                futures.add(pool.submit((Callable<T>) () -> body.run(round)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(120, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface RoundBody<T> {
        T run(int round) throws Exception;
    }
}
