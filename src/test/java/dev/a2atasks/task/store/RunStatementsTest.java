package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.push.PushConfigEntity;
import dev.a2atasks.support.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;

/**
 * The one-statement writes of a new task and of a run (TaskStore.SUBMIT, RunStatements) leave
 * exactly the rows the entity path leaves: two tasks with a webhook registration take the same
 * run, one through the statements and one through the entities, and every row of the two (their
 * outbox rows too) is compared, ids and times aside. And a registration committed while a
 * statement waits for the task's row lock is not missed: the statement writes nothing and the
 * entity path owes the event to it.
 */
@QuarkusTest
class RunStatementsTest {

    private static final String TENANT = "RunStatementsTest";
    private static final Caller OWNER = new Caller(TENANT, "alice");
    private static final Lease LEASE = new Lease("RunStatementsTest", Duration.ofMinutes(5));

    @Inject
    TaskStore store;

    @Inject
    RunWrites runs;

    @Inject
    RunStatements statements;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRunWritesTheSameRowsThroughTheStatementsAsThroughTheEntities() throws Throwable {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        TaskStore.Accepted byStatements = submit("by-statement", null);
        // Through the entities: the first message with a write that shares its transaction, then the run's entity path.
        TaskStore.Accepted byEntities = submit("by-entity", task -> Uni.createFrom().voidItem());
        for (String id : List.of("by-statement", "by-entity")) {
            register(db, id, "hook");
        }

        RunRef ref = ref(byStatements);
        await(() -> runs.recordStatus(ref, status(TaskState.TASK_STATE_WORKING, "Working on it"), LEASE));
        await(() -> runs.recordArtifact(ref, chunk("one "), true, false));
        await(() -> runs.recordArtifact(ref, chunk("two"), true, true));
        await(() -> runs.recordArtifact(ref, whole(), false, true));
        assertNull(await(() -> runs.recordStatus(ref, status(TaskState.TASK_STATE_COMPLETED, "Done"), LEASE)));

        RunRef other = ref(byEntities);
        await(() -> runs.recordStatusByEntities(other, status(TaskState.TASK_STATE_WORKING, "Working on it"), LEASE));
        await(() -> runs.recordArtifactByEntities(other, chunk("one "), true, false));
        await(() -> runs.recordArtifactByEntities(other, chunk("two"), true, true));
        await(() -> runs.recordArtifactByEntities(other, whole(), false, true));
        assertNull(await(() -> runs.recordStatusByEntities(other, status(TaskState.TASK_STATE_COMPLETED, "Done"), LEASE)));

        assertEquals(rows(db, "by-entity"), rows(db, "by-statement"));
        assertTrue(rows(db, "by-statement").contains("TASK_STATE_COMPLETED"), rows(db, "by-statement"));
        assertTrue(rows(db, "by-statement").contains("(hook,4)"), "the last event is owed to the webhook: " + rows(db, "by-statement"));
        assertFalse(rows(db, "by-statement").contains("null|null|null|0|TASK_STATE_WORKING"), "the run ended with its turn");
    }

    @Test
    void aRegistrationCommittedWhileTheStatementWaitsForTheTaskIsOwedTheEvent() throws Throwable {
        Db db = new Db(dataSource);
        db.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "' AND id = 'raced'");
        TaskStore.Accepted task = submit("raced", null);
        RunRef ref = ref(task);
        register(db, "raced", "first");
        CompletableFuture<Boolean> written;
        try (Connection registering = dataSource.getConnection(); Statement s = registering.createStatement()) {
            registering.setAutoCommit(false);
            // As PushStore registers: the task's row lock first, then the registration.
            s.execute("SELECT 1 FROM tasks WHERE tenant = '" + TENANT + "' AND id = 'raced' FOR UPDATE");
            s.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) VALUES ('" + TENANT
                    + "', 'alice', 'raced', 'second', 'http://192.0.2.1/hook', now())");
            written = statements.status(ref, status(TaskState.TASK_STATE_WORKING, "Working")).subscribeAsCompletionStage();
            Thread.sleep(300);
            assertFalse(written.isDone(), "the statement waits for the task's row lock");
            registering.commit();
        }
        assertFalse(written.get(10, TimeUnit.SECONDS), "its snapshot predates the registration: it wrote nothing");
        await(() -> runs.recordStatus(ref, status(TaskState.TASK_STATE_WORKING, "Working"), LEASE));
        long event = db.queryLong("SELECT max(seq) FROM task_events WHERE tenant = '" + TENANT + "' AND task_id = 'raced'");
        assertEquals(2, db.queryLong("SELECT count(*) FROM push_outbox WHERE tenant = '" + TENANT + "' AND task_id = 'raced'"
                + " AND event_seq = " + event), "the event is owed to both registrations");
    }

    /**
     * A new task with the webhook sent with its message: one statement (the entity write would
     * fail the test if it were called) leaves the rows the entity path leaves, its registration
     * included, and the run's first event is owed to it on both.
     */
    @Test
    void aNewTaskWithItsWebhookIsOneStatementThatWritesWhatTheEntitiesWrite() throws Throwable {
        Db db = new Db(dataSource);
        db.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "' AND id IN ('hooked-by-statement', 'hooked-by-entity')");
        OffsetDateTime at = OffsetDateTime.of(2026, 12, 6, 6, 0, 0, 123_456_000, ZoneOffset.UTC);
        NewTaskWebhook webhook = new NewTaskWebhook("hook", "http://192.0.2.1/hook", "Bearer", new byte[] { 1, 2, 3 }, null, "k1", at);
        TaskStore.Accepted byStatement = submit("hooked-by-statement", new LockedTaskWrite() {
            @Override
            public Uni<?> write(TaskEntity lockedTask) {
                return Uni.createFrom().failure(new AssertionError("the new task's statement stores the registration"));
            }

            @Override
            public NewTaskWebhook asNewTaskWebhook() {
                return webhook;
            }
        });
        TaskStore.Accepted byEntity = submit("hooked-by-entity", lockedTask -> {
            PushConfigEntity config = new PushConfigEntity();
            config.tenant = TENANT;
            config.owner = OWNER.subject();
            config.taskId = lockedTask.id;
            config.id = webhook.id();
            config.url = webhook.url();
            config.authScheme = webhook.authScheme();
            config.tokenSealed = webhook.tokenSealed();
            config.sealedWith = webhook.sealedWith();
            config.createdAt = webhook.createdAt();
            lockedTask.registeredPush();
            return config.persist();
        });
        for (TaskStore.Accepted task : List.of(byStatement, byEntity)) {
            await(() -> runs.recordStatus(ref(task), status(TaskState.TASK_STATE_WORKING, "Working on it"), LEASE));
        }
        String rows = rows(db, "hooked-by-statement") + registrations(db, "hooked-by-statement");
        assertEquals(rows(db, "hooked-by-entity") + registrations(db, "hooked-by-entity"), rows);
        assertTrue(rows.contains("(hook,0)"), "the first event is owed to the webhook: " + rows);
        assertTrue(rows.contains("(hook,http://192.0.2.1/hook,Bearer,") && rows.contains("x010203") && rows.contains(",,k1,t)"), rows);
    }

    private static String registrations(Db db, String taskId) {
        return db.queryText("SELECT ROW(id, url, auth_scheme, token_sealed, credentials_sealed, sealed_with,"
                + " created_at = '2026-12-06T06:00:00.123456Z')::text FROM push_configs WHERE tenant = '" + TENANT
                + "' AND task_id = '" + taskId + "' ORDER BY id");
    }

    /** A webhook registration of the task, made as PushStore makes one (its trigger marks the task). */
    private static void register(Db db, String taskId, String id) {
        db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) VALUES ('" + TENANT + "', 'alice', '"
                + taskId + "', '" + id + "', 'http://192.0.2.1/hook', now())");
    }

    private static RunRef ref(TaskStore.Accepted task) {
        return new RunRef(OWNER, task.taskId(), task.contextId(), task.start().id());
    }

    /** Every column a write sets, of the task, its messages, artifacts, events and outbox rows, in key order; ids and times left out. */
    private static String rows(Db db, String id) {
        String task = "(SELECT pk FROM tasks WHERE tenant = '" + TENANT + "' AND id = '" + id + "')";
        return db.queryText("SELECT ROW(state, status_message - 'messageId', metadata, next_seq, next_event_seq, run_id IS NULL,"
                + " lease_owner, lease_expires_at IS NULL, queued_inputs, run_input_seq, origin_message_id IS NOT NULL,"
                + " status_ts >= created_at, updated_at >= created_at, push_registered)::text FROM tasks WHERE pk = " + task)
                + db.queryText("SELECT ROW(seq, role, parts, metadata, extensions, reference_task_ids)::text FROM messages"
                        + " WHERE task_pk = " + task + " ORDER BY seq")
                + db.queryText("SELECT ROW(artifact_id, ord, name, description, parts, metadata, extensions)::text FROM artifacts"
                        + " WHERE task_pk = " + task + " ORDER BY ord")
                + db.queryText("SELECT ROW(seq, kind, input_seq, payload #- '{statusUpdate,taskId}' #- '{statusUpdate,contextId}'"
                        + " #- '{statusUpdate,status,timestamp}' #- '{statusUpdate,status,message,messageId}'"
                        + " #- '{statusUpdate,status,message,taskId}' #- '{statusUpdate,status,message,contextId}'"
                        + " #- '{artifactUpdate,taskId}' #- '{artifactUpdate,contextId}')::text FROM task_events"
                        + " WHERE tenant = '" + TENANT + "' AND task_id = '" + id + "' ORDER BY seq")
                // Owed rows as written (the worker may have tried one meanwhile: its attempts and state are left out).
                + db.queryText("SELECT ROW(config_id, event_seq)::text FROM push_outbox"
                        + " WHERE tenant = '" + TENANT + "' AND task_id = '" + id + "' ORDER BY config_id, event_seq");
    }

    private TaskStore.Accepted submit(String id, LockedTaskWrite alsoWrite) throws Throwable {
        Message first = Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER)
                .addParts(Part.newBuilder().setText("hello")).build();
        return await(() -> store.submit(OWNER, id, "ctx", first, LEASE, alsoWrite));
    }

    private static TaskStatus status(TaskState state, String text) {
        return TaskStatus.newBuilder().setState(state).setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString())
                .setRole(Role.ROLE_AGENT).addParts(Part.newBuilder().setText(text))).build();
    }

    private static Artifact whole() {
        return Artifact.newBuilder().setArtifactId("whole").setName("w").addParts(Part.newBuilder().setText("all")).build();
    }

    private static Artifact chunk(String text) {
        return Artifact.newBuilder().setArtifactId("echo").setName("echo")
                .addParts(Part.newBuilder().setText(text).setMediaType("text/plain")).build();
    }

    private static <T> T await(Supplier<Uni<T>> write) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(write::get);
    }
}
