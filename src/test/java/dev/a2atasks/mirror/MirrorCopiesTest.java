package dev.a2atasks.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.google.protobuf.Value;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
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
 * Issue 16: a mirror writes only what differs (an idle sync writes no row), marks the history gap
 * a short tail leaves, and a reconciliation retires copies of tasks deleted at the source.
 */
@QuarkusTest
class MirrorCopiesTest extends BindingTest {

    private static final String OWNER = "remote-agent";

    @Inject
    Mirror mirror;

    @Inject
    TaskStore store;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void anIdleMirrorWritesNothing(String binding) {
        String sourceTenant = freshTenant("idle-source-" + binding, api("GRPC"));
        String localTenant = freshTenant("idle-local-" + binding, api("GRPC"));
        Instant now = Instant.now();
        for (int i = 0; i < 50; i++) { // the newest ten lie inside the skew window of every sync below
            Instant ts = i < 10 ? now.minusMillis(100L * i) : now.minusSeconds(60L * i);
            long pk = db.insertTask(sourceTenant, OWNER, String.format("i%02d", i), "ctx", "TASK_STATE_WORKING", ts);
            db.insertMessages(pk, 3);
            db.insertArtifact(pk, "a" + i, 0);
        }
        MirrorSource source = source("idle-" + binding + "-" + System.nanoTime(), binding, sourceTenant, localTenant, 3);
        Mirror.SyncResult first = mirror.sync(source);
        assertEquals(50, first.created());

        String before = rowVersions(localTenant);
        for (int i = 0; i < 5; i++) {
            Mirror.SyncResult idle = mirror.sync(source);
            assertTrue(idle.read() >= 10, "the skew window is read again: " + idle.summary());
            assertEquals(0, idle.created() + idle.updated() + idle.messagesAdded(), idle.summary());
            assertEquals(idle.read(), idle.unchanged(), idle.summary());
        }
        assertEquals(before, rowVersions(localTenant), "five idle syncs wrote no row (tasks, messages, artifacts, mark)");

        // A bulk update at the source: written once, then idle again.
        db.execute("UPDATE tasks SET state = 'TASK_STATE_COMPLETED', status_ts = now() WHERE tenant = '" + sourceTenant
                + "' AND id < 'i40'");
        Mirror.SyncResult bulk = mirror.sync(source);
        assertEquals(40, bulk.updated(), bulk.summary());
        String afterBulk = rowVersions(localTenant);
        Mirror.SyncResult again = mirror.sync(source);
        assertTrue(again.read() >= 40, again.summary());
        assertEquals(0, again.updated(), "the bulk update's window is read, not rewritten: " + again.summary());
        assertEquals(afterBulk, rowVersions(localTenant));
    }

    @Test
    void aHistoryGapIsDetectedAndMarked() throws Throwable {
        String sourceTenant = freshTenant("gap-source", api("GRPC"));
        String localTenant = freshTenant("gap-local", api("GRPC"));
        Caller remote = new Caller(sourceTenant, OWNER);
        Instant old = Instant.now().minusSeconds(600);
        db.insertMessages(db.insertTask(sourceTenant, OWNER, "gap", "ctx", "TASK_STATE_WORKING", old), 5); // m0-m4
        db.insertMessages(db.insertTask(sourceTenant, OWNER, "no-gap", "ctx", "TASK_STATE_WORKING", old.plusSeconds(1)), 5);
        MirrorSource source = source("gap-" + System.nanoTime(), "grpc", sourceTenant, localTenant, 3);
        mirror.sync(source);
        String local = Tokens.valid(localTenant, "copies");
        assertEquals(List.of("m2", "m3", "m4"), ids(api("GRPC").get(local, null, "gap", "10")));

        for (int i = 1; i <= 5; i++) { // more new messages than the tail carries: x1 and x2 never reach the copy
            append(remote, "gap", "x" + i);
        }
        append(remote, "no-gap", "y1");
        append(remote, "no-gap", "y2");
        for (String id : List.of("gap", "no-gap")) { // move both so the next sync lists them
            VertxContextSupport.subscribeAndAwait(() -> store.updateStatus(remote, id,
                    TaskStatus.newBuilder().setState(TaskState.TASK_STATE_INPUT_REQUIRED).build()));
        }
        Mirror.SyncResult sync = mirror.sync(source);
        assertEquals(1, sync.gaps(), sync.summary());

        Task gap = api("GRPC").get(local, null, "gap", "10");
        assertEquals(List.of("m2", "m3", "m4", "x3", "x4", "x5"), ids(gap));
        Value note = gap.getHistory(3).getMetadata().getFieldsOrThrow(dev.a2atasks.task.store.MirrorCopies.COPY_NOTES_KEY).getStructValue()
                .getFieldsOrThrow("historyGapBefore");
        assertTrue(note.getBoolValue(), "the first message after the gap says so");
        Task noGap = api("GRPC").get(local, null, "no-gap", "10");
        assertEquals(List.of("m2", "m3", "m4", "y1", "y2"), ids(noGap));
        assertFalse(noGap.getHistoryList().stream().anyMatch(m -> m.getMetadata().containsFields(dev.a2atasks.task.store.MirrorCopies.COPY_NOTES_KEY)),
                "a tail that overlaps the copy has no gap");
        assertEquals(0, mirror.sync(source).gaps(), "reported once");
    }

    @Test
    void aReconciliationRetiresCopiesOfDeletedTasks() {
        String sourceTenant = freshTenant("gone-source", api("GRPC"));
        String deleting = freshTenant("gone-deleting", api("GRPC"));
        String marking = freshTenant("gone-marking", api("GRPC"));
        Instant base = Instant.now().minusSeconds(3600);
        for (int i = 0; i < 30; i++) {
            long pk = db.insertTask(sourceTenant, OWNER, String.format("d%02d", i), "ctx", "TASK_STATE_COMPLETED",
                    base.plusSeconds(i));
            db.insertMessages(pk, 2);
        }
        MirrorSource deletes = source("gone-d-" + System.nanoTime(), "http", sourceTenant, deleting, 2);
        MirrorSource marks = source("gone-m-" + System.nanoTime(), "grpc", sourceTenant, marking, 2).markingGone();
        mirror.sync(deletes);
        mirror.sync(marks);
        db.execute("DELETE FROM tasks WHERE tenant = '" + sourceTenant + "' AND id IN ('d03', 'd17', 'd29')");

        assertEquals(0, mirror.sync(deletes).retired(), "an incremental sync cannot see deletions");
        assertEquals(30, api("GRPC").list(Tokens.valid(deleting, "copies"), Map.of()).getTotalSize());

        Mirror.SyncResult deleted = mirror.reconcile(deletes);
        assertEquals(3, deleted.retired(), deleted.summary());
        assertTrue(deleted.read() >= 27, "the whole source, and its newest again in the catch-up: " + deleted.summary());
        assertEquals(0, deleted.created() + deleted.updated(), "the rest is unchanged, not rewritten");
        assertEquals(27, api("GRPC").list(Tokens.valid(deleting, "copies"), Map.of()).getTotalSize());
        assertEquals(0, db.queryLong("SELECT count(*) FROM messages m JOIN tasks t ON t.pk = m.task_pk WHERE t.tenant = '"
                + deleting + "' AND t.id = 'd03'"));

        Mirror.SyncResult marked = mirror.reconcile(marks);
        assertEquals(3, marked.retired(), marked.summary());
        String token = Tokens.valid(marking, "copies");
        assertEquals(30, api("GRPC").list(token, Map.of()).getTotalSize(), "marked, kept");
        Task gone = api("HTTP+JSON").get(token, null, "d17", "0");
        assertTrue(gone.getMetadata().getFieldsOrThrow(dev.a2atasks.task.store.MirrorCopies.COPY_NOTES_KEY).getStructValue()
                .containsFields("deletedAtSource"), gone.getMetadata().toString());
        String versions = rowVersions(marking);
        assertEquals(0, mirror.reconcile(marks).retired(), "marked once");
        assertEquals(versions, rowVersions(marking), "a second reconciliation writes nothing");

        // A token now scoped to someone else lists nothing: the copies are kept, not all retired.
        String empty = freshTenant("gone-nobody", api("GRPC"));
        MirrorSource wrongToken = source(deletes.name(), "http", empty, deleting, 2);
        assertEquals(0, mirror.reconcile(wrongToken).retired());
        assertEquals(27, api("GRPC").list(Tokens.valid(deleting, "copies"), Map.of()).getTotalSize());
    }

    @Test
    void aSourceWritesAndRetiresOnlyItsOwnCopies() throws Exception {
        String one = freshTenant("own-source-1", api("GRPC"));
        String two = freshTenant("own-source-2", api("GRPC"));
        String local = freshTenant("own-local", api("GRPC"));
        Instant base = Instant.now().minusSeconds(3600);
        for (int i = 0; i < 10; i++) {
            db.insertTask(one, OWNER, String.format("p%02d", i), "ctx", "TASK_STATE_COMPLETED", base.plusSeconds(i));
            db.insertTask(two, OWNER, String.format("q%02d", i), "ctx", "TASK_STATE_COMPLETED", base.plusSeconds(i));
        }
        // Source one also lists a task whose id the local owner already uses for a task of its own.
        db.insertTask(one, OWNER, "shared", "ctx", "TASK_STATE_COMPLETED", base.plusSeconds(20));
        db.insertTask(local, "copies", "shared", "mine", "TASK_STATE_INPUT_REQUIRED", base);
        db.execute("UPDATE tasks SET origin_message_id = 'm-own' WHERE tenant = '" + local + "' AND id = 'shared'");
        // And the local owner sends a message of its own: its task lives beside the copies.
        String ownTask;
        try (dev.a2atasks.support.GrpcChannels channels = new dev.a2atasks.support.GrpcChannels(root)) {
            ownTask = channels.stub(Tokens.valid(local, "copies")).sendMessage(dev.a2atasks.proto.v1.SendMessageRequest.newBuilder()
                    .setMessage(Message.newBuilder().setMessageId("own-" + System.nanoTime()).setRole(Role.ROLE_USER)
                            .addParts(Part.newBuilder().setText("input please"))).build()).getTask().getId();
        }

        MirrorSource first = source("own-1-" + System.nanoTime(), "grpc", one, local, 2);
        MirrorSource second = source("own-2-" + System.nanoTime(), "http", two, local, 2);
        assertEquals(10, mirror.sync(first).created(), "the shared id is left alone");
        assertEquals(10, mirror.sync(second).created());
        assertEquals("TASK_STATE_INPUT_REQUIRED", db.queryText("SELECT state FROM tasks WHERE tenant = '" + local
                + "' AND id = 'shared'").trim(), "the owner's own task was not overwritten by the copy");

        db.execute("DELETE FROM tasks WHERE tenant = '" + one + "' AND id IN ('p01', 'p02')");
        Mirror.SyncResult reconciled = mirror.reconcile(first);
        assertEquals(2, reconciled.retired(), reconciled.summary());
        // Source two's copies, the owner's own tasks: all still there.
        assertEquals(10, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + local + "' AND id LIKE 'q%'"));
        assertEquals(2, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + local + "' AND id IN ('shared', '" + ownTask + "')"));
        assertEquals(8, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + local + "' AND mirror_source = '" + first.name() + "'"));
        assertEquals(0, mirror.reconcile(second).retired());
    }

    @Test
    void oneReplicaAtATimeHoldsASourcesLease() throws Exception {
        String name = "lease-" + System.nanoTime();
        MirrorLeases a = new MirrorLeases(pool, "replica-a");
        MirrorLeases b = new MirrorLeases(pool, "replica-b");
        assertTrue(a.take(name, Duration.ofMinutes(1)));
        assertFalse(b.take(name, Duration.ofMinutes(1)), "held by a");
        assertTrue(a.take(name, Duration.ofMinutes(1)), "a renews its own");
        b.release(name); // not b's: nothing happens
        assertFalse(b.take(name, Duration.ofMinutes(1)));
        a.release(name);
        assertTrue(b.take(name, Duration.ofMillis(1)), "free once a gave it up");
        Thread.sleep(50);
        assertTrue(a.take(name, Duration.ofMinutes(1)), "an expired lease is taken over");
        a.release(name);
    }

    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    private void append(Caller owner, String taskId, String messageId) throws Throwable {
        Message message = Message.newBuilder().setMessageId(messageId).setRole(Role.ROLE_AGENT)
                .addParts(Part.newBuilder().setText("text of " + messageId)).build();
        VertxContextSupport.subscribeAndAwait(() -> store.appendMessage(owner, taskId, message));
    }

    private static List<String> ids(Task task) {
        return task.getHistoryList().stream().map(Message::getMessageId).toList();
    }

    /** Every row version (xmin) of the scope's copies and the marks table: any write changes it. */
    private String rowVersions(String tenant) {
        return db.queryText("SELECT string_agg(v, ',' ORDER BY v) FROM ("
                + " SELECT 't' || t.pk || ':' || t.xmin AS v FROM tasks t WHERE t.tenant = '" + tenant + "'"
                + " UNION ALL SELECT 'm' || m.task_pk || '.' || m.seq || ':' || m.xmin FROM messages m JOIN tasks t ON t.pk = m.task_pk"
                + "   WHERE t.tenant = '" + tenant + "'"
                + " UNION ALL SELECT 'a' || a.task_pk || '.' || a.artifact_id || ':' || a.xmin FROM artifacts a"
                + "   JOIN tasks t ON t.pk = a.task_pk WHERE t.tenant = '" + tenant + "'"
                + " UNION ALL SELECT 'k' || k.mirror || ':' || k.xmin FROM mirror_marks k) AS versions");
    }

    private MirrorSource source(String name, String binding, String sourceTenant, String localTenant, int historyLength) {
        String endpoint = binding.equals("grpc") ? root.getHost() + ":" + root.getPort() : root.toString();
        return new MirrorSource(name, endpoint, binding, true, TokenSource.fixed(Tokens.valid(sourceTenant, OWNER)),
                Optional.empty(), new Caller(localTenant, "copies"), historyLength, true, Optional.of(Duration.ofSeconds(2)), 20,
                Duration.ofSeconds(30), Duration.ZERO, true, Duration.ofMinutes(1), 0);
    }
}
