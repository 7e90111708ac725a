package dev.a2atasks.execution;

import static dev.a2atasks.execution.WritePathParityTest.message;
import static dev.a2atasks.execution.WritePathParityTest.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * Work leases: a task whose process died (its lease expired) is failed by the sweep, with a
 * status message that says so, an event, and a new place at the front of ListTasks; a live lease
 * is left alone; a finished run gives its lease up.
 */
@QuarkusTest
class LeaseTest extends BindingTest {

    private static final String TENANT = "LeaseTest";

    @Inject
    LeaseSweeper sweeper;

    @Test
    void anExpiredLeaseEndsTheTaskFailedAndALiveOneIsKept() {
        db.clearTenant(TENANT);
        long dead = db.insertTask(TENANT, "alice", "orphan", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
        long live = db.insertTask(TENANT, "alice", "running", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:01Z"));
        db.execute("UPDATE tasks SET lease_owner = 'replica-that-died', lease_expires_at = now() - interval '1 second' WHERE pk = " + dead);
        db.execute("UPDATE tasks SET lease_owner = 'replica-alive', lease_expires_at = now() + interval '1 hour' WHERE pk = " + live);

        // The sweep's outcome is what is checked below, not its count: this replica's own periodic sweep
        // (the same code, every 5 s) may take the expired row first, and then this call finds nothing left.
        sweeper.sweep();

        String bearer = Tokens.valid(TENANT, "alice");
        Task orphan = api("GRPC").get(bearer, null, "orphan", "1");
        assertEquals(TaskState.TASK_STATE_FAILED, orphan.getStatus().getState());
        assertEquals(LeaseSweeper.REASON, orphan.getStatus().getMessage().getParts(0).getText());
        assertEquals("replica-that-died", orphan.getStatus().getMessage().getMetadata().getFieldsOrThrow("interruptedInstance").getStringValue());
        assertEquals("orphan", api("HTTP+JSON").list(bearer, Map.of()).getTasks(0).getId(), "its status change moved it to the front");
        assertEquals(1, db.queryLong("SELECT count(*) FROM task_events WHERE tenant = 'LeaseTest' AND task_id = 'orphan'"
                + " AND payload->'statusUpdate'->'status'->>'state' = 'TASK_STATE_FAILED'"));
        assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE pk = " + dead + " AND lease_owner IS NOT NULL"));

        assertEquals(TaskState.TASK_STATE_WORKING, api("GRPC").get(bearer, null, "running", "0").getStatus().getState());
        assertEquals(1, db.queryLong("SELECT count(*) FROM tasks WHERE pk = " + live + " AND lease_owner = 'replica-alive'"));
    }

    @Test
    void aTaskWaitingForItsClientIsNeverFailedByTheSweep() {
        db.clearTenant(TENANT);
        long waiting = db.insertTask(TENANT, "carol", "waiting", "ctx", "TASK_STATE_INPUT_REQUIRED", Instant.parse("2026-01-01T00:00:02Z"));
        // A stale lease on it (a release that failed, a crash between commit and release): dropped, nothing more.
        db.execute("UPDATE tasks SET lease_owner = 'replica-that-died', lease_expires_at = now() - interval '1 second',"
                + " run_id = '" + UUID.randomUUID() + "' WHERE pk = " + waiting); // a value: Citus refuses volatile functions in an UPDATE

        // The sweep's outcome is what is checked below, not its count: this replica's own periodic sweep
        // (the same code, every 5 s) may take the expired row first, and then this call finds nothing left.
        sweeper.sweep();

        assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, api("GRPC").get(Tokens.valid(TENANT, "carol"), null, "waiting", "0")
                .getStatus().getState());
        assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE pk = " + waiting + " AND (lease_owner IS NOT NULL OR run_id IS NOT NULL)"));
        assertEquals(0, db.queryLong("SELECT count(*) FROM task_events WHERE tenant = 'LeaseTest' AND task_id = 'waiting'"));
    }

    @Test
    void aRunThatAsksForInputGivesItsLeaseUp() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            Task task = channels.stub(Tokens.valid(TENANT, "bob")).sendMessage(request(message("input wanted", null, null))).getTask();
            assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, task.getStatus().getState());
            // Released in the transaction that recorded INPUT_REQUIRED: no wait.
            assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = 'LeaseTest' AND id = '" + task.getId()
                    + "' AND (lease_owner IS NOT NULL OR run_id IS NOT NULL)"));
        }
    }

    @Test
    void aFinishedRunGivesItsLeaseUp() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            Task task = channels.stub(Tokens.valid(TENANT, "bob")).sendMessage(request(message("hello", null, null))).getTask();
            assertEquals(TaskState.TASK_STATE_COMPLETED, task.getStatus().getState());
            long deadline = System.currentTimeMillis() + 5_000; // the run's last step (giving the lease up) follows its last update
            long leased;
            do {
                leased = db.queryLong("SELECT count(*) FROM tasks WHERE tenant = 'LeaseTest' AND id = '" + task.getId()
                        + "' AND lease_owner IS NOT NULL");
            } while (leased != 0 && System.currentTimeMillis() < deadline);
            assertEquals(0, leased);
        }
    }
}
