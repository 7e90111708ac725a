package dev.a2atasks.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/**
 * A mirror of a "remote" agent (this same service over loopback, as another caller): the first
 * sync copies everything, later syncs read only what changed plus the skew window, mirrored
 * tasks are served like local ones, and a fresh mirror resumes from the persisted mark.
 */
@QuarkusTest
class MirrorTest extends BindingTest {

    private static final int SOURCE_TASKS = 120;

    @Inject
    Mirror mirror;

    @Inject
    TaskStore store;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void incrementalSyncFromThePersistedMark(String binding) throws Throwable {
        String sourceTenant = freshTenant("source-" + binding, api("GRPC"));
        String localTenant = freshTenant("local-" + binding, api("GRPC"));
        String name = "test-" + binding + "-" + System.nanoTime();
        Caller remote = new Caller(sourceTenant, "remote-agent");
        Instant base = Instant.now().minusSeconds(3600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        for (int i = 0; i < SOURCE_TASKS; i++) { // 10 s apart: only the newest lies within a 2 s skew of the mark
            long pk = db.insertTask(sourceTenant, "remote-agent", String.format("r%03d", i), "ctx", "TASK_STATE_WORKING",
                    base.plusSeconds(10L * i));
            db.insertMessages(pk, 3);
        }
        MirrorSource source = source(name, binding, sourceTenant, localTenant);

        Mirror.SyncResult first = mirror.sync(source);
        assertNull(first.fromMark());
        assertEquals(SOURCE_TASKS, first.stats().rows(), "the first sync reads everything");
        assertEquals(base.plusSeconds(10L * (SOURCE_TASKS - 1)), first.toMark());
        String local = Tokens.valid(localTenant, "mirror-owner");
        assertEquals(SOURCE_TASKS, api("JSONRPC").list(local, Map.of()).getTotalSize(), "served like local tasks");
        assertEquals(List.of("m1", "m2"), api("GRPC").get(local, null, "r007", "2").getHistoryList().stream()
                .map(m -> m.getMessageId()).toList());

        int changes = 7;
        for (int i = 0; i < changes; i++) {
            String id = String.format("r%03d", 11 * i);
            VertxContextSupport.subscribeAndAwait(() -> store.updateStatus(remote, id,
                    TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED).build()));
        }

        // A new Mirror-equivalent run: nothing in memory, only the persisted mark.
        Mirror.SyncResult second = mirror.sync(source(name, binding, sourceTenant, localTenant));
        assertEquals(first.toMark(), second.fromMark(), "resumed from the persisted mark");
        int insideSkew = 1; // the task at the mark itself (statusTimestampAfter is inclusive)
        assertTrue(second.stats().rows() <= changes + insideSkew, second.stats().toString());
        assertEquals(changes + insideSkew, second.stats().rows());
        assertTrue(second.toMark().isAfter(first.toMark()));

        ListTasksResponse completed = api("HTTP+JSON").list(local, Map.of("status", "TASK_STATE_COMPLETED"));
        assertEquals(changes, completed.getTotalSize());
        for (Task task : completed.getTasksList()) {
            Task original = api("GRPC").get(Tokens.valid(sourceTenant, "remote-agent"), null, task.getId(), "0");
            assertEquals(original.getStatus(), task.getStatus(), "status and its timestamp copied exactly");
        }

        // Nothing changed: the next sync reads only the skew window.
        Mirror.SyncResult third = mirror.sync(source(name, binding, sourceTenant, localTenant));
        assertEquals(second.toMark(), third.fromMark());
        assertTrue(third.stats().rows() <= changes, third.stats().toString());
        assertEquals(SOURCE_TASKS, api("GRPC").list(local, Map.of()).getTotalSize(), "no duplicates");
    }

    private MirrorSource source(String name, String binding, String sourceTenant, String localTenant) {
        String endpoint = binding.equals("grpc") ? root.getHost() + ":" + root.getPort() : root.toString();
        return MirrorSource.of(name, endpoint, binding, true, Tokens.valid(sourceTenant, "remote-agent"),
                new Caller(localTenant, "mirror-owner"), 3, true, Duration.ofSeconds(2), 50, Duration.ofSeconds(30));
    }
}
