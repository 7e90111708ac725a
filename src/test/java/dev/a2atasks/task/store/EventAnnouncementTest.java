package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.support.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/**
 * The event log's one hand-written statement (README's persistence table): every recorded event
 * is announced by a {@code SELECT pg_notify} on {@value TaskEventLog#EVENTS_CHANNEL} with the
 * task's row key, in the event's transaction, so a listener on another connection (another
 * replica) hears it once the change commits, and never for a change that did not.
 */
@QuarkusTest
class EventAnnouncementTest {

    private static final String TENANT = "EventAnnouncementTest";

    @Inject
    TaskStore store;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aCommittedChangeIsAnnouncedWithItsTaskKeyAndARefusedOneIsNot() throws Throwable {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        Caller alice = new Caller(TENANT, "alice");
        long pk = db.insertTask(TENANT, "alice", "announced", "ctx", "TASK_STATE_WORKING", Instant.now());
        long done = db.insertTask(TENANT, "alice", "done", "ctx", "TASK_STATE_COMPLETED", Instant.now());
        try (Connection listener = dataSource.getConnection(); Statement s = listener.createStatement()) {
            s.execute("LISTEN " + TaskEventLog.EVENTS_CHANNEL);
            payloads(listener, 100, Set.of()); // nothing left from before

            VertxContextSupport.subscribeAndAwait(() -> store.updateStatus(alice, "announced",
                    TaskStatus.newBuilder().setState(TaskState.TASK_STATE_INPUT_REQUIRED).build()));
            Set<String> ours = Set.of(Long.toString(pk), Long.toString(done)); // other tests' runs may announce meanwhile
            assertEquals(List.of(Long.toString(pk)), payloads(listener, 2_000, ours), "one announcement, the task's row key");

            // Refused inside its transaction (a terminal task cannot be canceled): nothing is announced.
            assertThrows(Exception.class, () -> VertxContextSupport.subscribeAndAwait(() -> store.cancel(alice, "done")));
            assertEquals(List.of(), payloads(listener, 1_000, ours), "no announcement of task " + done + "'s refused change");
        }
    }

    /** Everything announced on the events channel for these task keys (any key when empty) within the wait. */
    private static List<String> payloads(Connection listener, int waitMillis, Set<String> keys) throws Exception {
        List<String> payloads = new ArrayList<>();
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        for (long left = waitMillis; left > 0; left = (deadline - System.nanoTime()) / 1_000_000) {
            PGNotification[] got = listener.unwrap(PGConnection.class).getNotifications((int) left);
            assertNotNull(got);
            for (PGNotification n : got) {
                if (n.getName().equals(TaskEventLog.EVENTS_CHANNEL) && (keys.isEmpty() || keys.contains(n.getParameter()))) {
                    payloads.add(n.getParameter());
                }
            }
        }
        return payloads;
    }
}
