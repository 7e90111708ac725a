package dev.a2atasks.task.store;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.DatabaseConfig;
import dev.a2atasks.db.PooledStatements;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.metrics.ServiceMetrics;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The writes a caller asks for: a user's message (a new task, or more for one of the caller's),
 * CancelTask, and tasks stored as given (seeds). Each takes the task row's lock first, and starts
 * the run a message gets in the same transaction ({@link RunWrites}); every change is recorded by
 * the {@link TaskEventLog}. A mirror's copies are written by {@link MirrorCopies}.
 *
 * <p>Message sequence numbers come from the task row's {@code next_seq}, taken under a row lock,
 * so concurrent appends to one task never collide and a history tail is a contiguous seq range.
 */
@ApplicationScoped
public class TaskStore {

    private final ServiceMetrics metrics;
    private final TaskEventLog events;
    private final RunWrites runs;
    private final Pool pool;

    TaskStore(ServiceMetrics metrics, TaskEventLog events, RunWrites runs, Pool pool, DatabaseConfig database) {
        this.metrics = metrics;
        this.events = events;
        this.runs = runs;
        this.pool = pool;
        this.oneStatement = database.distribution() != DatabaseConfig.Distribution.CITUS;
    }

    /**
     * Whether a new task is written by {@link #SUBMIT} (one PostgreSQL) or by the entities (Citus,
     * where the CTE runs as steps through the coordinator and the entities' INSERTs are router
     * statements: see {@link RunStatements}).
     */
    private final boolean oneStatement;

    /** Stores a new task with its history and artifacts in one transaction; returns its row key. */
    @WithTransaction
    public Uni<Long> create(Caller owner, Task task) {
        return (task.getStatus().hasTimestamp() ? TaskRows.statusTimestampsGiven() : Uni.createFrom().voidItem())
                .chain(() -> TaskRows.insert(owner, task, null));
    }

    /** Appends a message to a task's history; returns its sequence number. */
    @WithTransaction
    public Uni<Long> appendMessage(Caller owner, String taskId, Message message) {
        return TaskRows.lockTask(owner, taskId).chain(task -> {
            long seq = task.nextSeq;
            task.nextSeq = seq + 1;
            task.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
            return TaskRows.toEntity(task.pk, task.owner, seq, message, task.updatedAt).persist().replaceWith(seq);
        });
    }

    /** Moves a task to a new status and records the event; the status timestamp is now unless the status carries one. */
    @WithTransaction
    public Uni<Void> updateStatus(Caller owner, String taskId, TaskStatus status) {
        return TaskRows.lockTask(owner, taskId).chain(task -> events.changeStatus(task, status));
    }

    // ---- The A2A write path: a user's message, the agent's runs, cancellation ------------------

    /**
     * Where a user's message went: its task, its history seq ({@code inputSeq}), whether it created
     * the task or was a retry of one already stored, and the run this process must now start
     * ({@code start}): for this message, for one queued before it, or null while another run is
     * going (the message is queued) or for a retry.
     */
    public record Accepted(long taskPk, String taskId, String contextId, long inputSeq, boolean created, boolean duplicate,
            Run start, Instant submittedAt) {

        Accepted(long taskPk, String taskId, String contextId, long inputSeq, boolean created, boolean duplicate, Run start) {
            this(taskPk, taskId, contextId, inputSeq, created, duplicate, start, null);
        }

        /**
         * The task this message created, as stored (SUBMITTED at {@code submittedAt}, the message its
         * history), with no read: a returnImmediately answer. Null unless it created the task.
         */
        public Task asSubmitted(boolean withHistory) {
            if (!created || submittedAt == null) {
                return null;
            }
            Task.Builder task = Task.newBuilder().setId(taskId).setContextId(contextId).setStatus(TaskStatus.newBuilder()
                    .setState(TaskState.TASK_STATE_SUBMITTED).setTimestamp(Timestamps.toProto(submittedAt)));
            if (withHistory) {
                task.addHistory(start.input());
            }
            return task.build();
        }
    }

    /** The task row and its first message ($1-$14), as the common part of the statements below. */
    private static final String NEW_TASK = """
            WITH task AS (
                INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts, created_at, updated_at, next_seq,
                                   origin_message_id, run_id, run_input_seq, lease_owner, lease_expires_at)
                VALUES ($1, $2, $3, $4, 'TASK_STATE_SUBMITTED', $5, $5, $5, 1, $6, $7, 0, $8, $9)
                RETURNING pk),
            message AS (
                INSERT INTO messages (task_pk, owner, seq, message_id, role, parts, metadata, extensions, reference_task_ids, created_at)
                SELECT pk, $2, 0, $6, $10, CAST(CAST($11 AS text) AS jsonb), CAST(CAST($12 AS text) AS jsonb), CAST(CAST($13 AS text) AS jsonb),
                       CAST(CAST($14 AS text) AS jsonb), $5
                FROM task
                RETURNING task_pk)
            """;

    /**
     * A new task and its first message as one statement, in a transaction of its own (the
     * common SendMessage, with no webhook to register with it): one round trip instead of a
     * session's five (BEGIN, the two inserts, COMMIT, and the identity read-back between them).
     * The same rows as {@link #submit}'s entities write; pinned by {@code RunStatementsTest}.
     */
    static final String SUBMIT = NEW_TASK + "SELECT task_pk FROM message";

    /**
     * {@link #SUBMIT} with the webhook registration sent with the message ($15-$21): the task, its
     * first message and its registration in one statement. The registration's trigger (V11, V12)
     * marks the task at the statement's end, when the task row it updates exists. Pinned by
     * {@code RunStatementsTest} (the entity path's rows).
     */
    static final String SUBMIT_WITH_WEBHOOK = NEW_TASK + """
            , config AS (
                INSERT INTO push_configs (tenant, owner, task_id, id, url, auth_scheme, token_sealed, credentials_sealed, sealed_with,
                                          created_at)
                SELECT $1, $2, $3, $15, $16, $17, $18, $19, $20, $21
                FROM message
                RETURNING id)
            SELECT task_pk FROM message, config""";

    /**
     * A new task for a user's message: SUBMITTED, the message its first history entry, and a run
     * for it leased to the process that will start it. A message id this caller already created a
     * task with fails with {@link #isOriginConflict}, and {@link #originOf} answers that task as
     * the retry's (also when two retries race). One statement, with the webhook registration sent
     * with the message when {@code alsoWrite} offers it as a row; any other shared write goes
     * through the entities.
     */
    public Uni<Accepted> submit(Caller owner, String taskId, String contextId, Message message, Lease lease,
            LockedTaskWrite alsoWrite) {
        NewTaskWebhook webhook = alsoWrite == null ? null : alsoWrite.asNewTaskWebhook();
        if (!oneStatement || alsoWrite != null && webhook == null) {
            return Panache.withTransaction(() -> submitWith(owner, taskId, contextId, message, lease, alsoWrite));
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        Message stored = message.toBuilder().setTaskId(taskId).setContextId(contextId).build();
        Run run = new Run(UUID.randomUUID(), 0, stored);
        MessageEntity row = TaskRows.toEntity(0, null, 0, message, now);
        List<Object> arguments = new ArrayList<>(Arrays.asList(owner.tenant(), owner.subject(), taskId, contextId, now,
                message.getMessageId(), run.id(), lease.owner(), lease.expiry(), row.role, row.partsJson, row.metadataJson,
                row.extensionsJson, row.referenceTaskIdsJson));
        if (webhook != null) {
            arguments.addAll(Arrays.asList(webhook.id(), webhook.url(), webhook.authScheme(), bytes(webhook.tokenSealed()),
                    bytes(webhook.credentialsSealed()), webhook.sealedWith(), webhook.createdAt()));
        }
        return PooledStatements.execute(pool, webhook == null ? SUBMIT : SUBMIT_WITH_WEBHOOK, Tuple.from(arguments))
                .map(rows -> {
                    metrics.taskCreated();
                    return new Accepted(rows.iterator().next().getLong(0), taskId, contextId, 0, true, false, run, now.toInstant());
                });
    }

    /** A bytea argument (null stays null). */
    private static Buffer bytes(byte[] value) {
        return value == null ? null : Buffer.buffer(value);
    }

    /**
     * {@link #submit} through the entities: with a write that must share its transaction and has no
     * statement of its own, and on Citus.
     */
    private Uni<Accepted> submitWith(Caller owner, String taskId, String contextId, Message message, Lease lease,
            LockedTaskWrite alsoWrite) {
        // No look-up first: a retry is rare, and the unique index on the first message finds it
        // (isOriginConflict; the caller answers with originOf), saving every send a round trip.
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS); // as stored
        TaskEntity row = new TaskEntity();
        row.tenant = owner.tenant();
        row.owner = owner.subject();
        row.id = taskId;
        row.contextId = contextId;
        row.createdAt = now;
        row.nextSeq = 1;
        row.originMessageId = message.getMessageId();
        Message stored = message.toBuilder().setTaskId(taskId).setContextId(contextId).build();
        Run run = new Run(UUID.randomUUID(), 0, stored);
        row.runId = run.id();
        row.runInputSeq = 0L;
        row.leaseOwner = lease.owner();
        row.leaseExpiresAt = lease.expiry();
        TaskRows.applyStatus(row, TaskStatus.newBuilder().setState(TaskState.TASK_STATE_SUBMITTED).build(), now);
        return row.<TaskEntity>persist()
                .chain(saved -> TaskRows.toEntity(saved.pk, saved.owner, 0, message, now).persist())
                .chain(() -> alsoWrite == null ? Uni.createFrom().voidItem() : alsoWrite.write(row).replaceWithVoid())
                .invoke(metrics::taskCreated)
                .replaceWith(() -> new Accepted(row.pk, taskId, contextId, 0, true, false, run, now.toInstant()));
    }

    /** Whether a failed {@link #submit} was a retry: the caller's first message with this id already created a task. */
    public static boolean isOriginConflict(Throwable failure) {
        // Hibernate Reactive reports PostgreSQL's unique violation (23505) as a JDBC-style SQLException.
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if ((t instanceof java.sql.SQLException sql && "23505".equals(sql.getSQLState())
                    || t instanceof io.vertx.pgclient.PgException pg && "23505".equals(pg.getSqlState()))
                    && String.valueOf(t.getMessage()).contains("tasks_origin_message_idx")) {
                return true;
            }
        }
        return false;
    }

    /** The task this caller's first message created, as a retry's answer (after {@link #isOriginConflict}). */
    @WithSession
    public Uni<Accepted> originOf(Caller owner, String messageId) {
        return findOrigin(owner, messageId).onItem().ifNull().failWith(() -> new IllegalStateException(
                "the first message " + messageId + " conflicted but its task is gone"));
    }

    private static Uni<Accepted> findOrigin(Caller owner, String messageId) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and originMessageId = ?3", owner.tenant(), owner.subject(),
                messageId).firstResult().map(task -> task == null ? null
                        : new Accepted(task.pk, task.id, task.contextId, 0, false, true, null));
    }

    /**
     * A user's message to an existing task of the caller's. A retry (a message id the task already
     * has) changes nothing. Otherwise the task must not be terminal, and the message is appended.
     * While a run of the task is going (its lease is live) the message is queued: the run hands it
     * on when it ends its turn waiting for input. Otherwise a run starts now, WORKING, for the
     * oldest queued message (this one, unless a run died with messages queued behind it).
     */
    @WithTransaction
    public Uni<Accepted> continueWith(Caller owner, String taskId, String contextId, Message message, Lease lease,
            LockedTaskWrite alsoWrite) {
        return TaskRows.lockTask(owner, taskId).chain(task -> MessageEntity.<MessageEntity>find("taskPk = ?1 and owner = ?2 and messageId = ?3",
                task.pk, task.owner, message.getMessageId()).firstResult().chain(existing -> {
                    if (existing != null) {
                        return Uni.createFrom().item(new Accepted(task.pk, task.id, task.contextId, existing.seq, false, true, null));
                    }
                    if (task.isTerminal()) {
                        return Uni.createFrom().failure(A2AException.UnsupportedOperation.taskIsTerminal("SendMessage", taskId, task.state));
                    }
                    if (contextId != null && !contextId.equals(task.contextId)) {
                        return Uni.createFrom().failure(A2AException.invalidParam("message.contextId",
                                "message.contextId does not match the context of task " + taskId));
                    }
                    long seq = task.nextSeq;
                    // Registered before the status change below, so that change is already owed to it.
                    Uni<?> registered = alsoWrite == null ? Uni.createFrom().voidItem() : alsoWrite.write(task);
                    return registered.chain(() -> TaskRows.appendLocked(task, message)).chain(() -> {
                        task.queuedInputs++;
                        if (RunWrites.runGoing(task)) {
                            return Uni.createFrom().item(new Accepted(task.pk, task.id, task.contextId, seq, false, false, null));
                        }
                        Uni<Run> next = task.queuedInputs == 1
                                ? runs.startRun(task, lease, seq, message.toBuilder().setTaskId(task.id).setContextId(task.contextId).build())
                                : runs.startQueued(task, lease);
                        return next.map(run -> new Accepted(task.pk, task.id, task.contextId, seq, false, false, run));
                    });
                }));
    }

    /**
     * CancelTask: a task that is not terminal becomes CANCELED (recorded as an event), which ends
     * whatever run owns it (its next write is refused) and leaves queued messages unanswered; a
     * terminal one is refused with TaskNotCancelable; another caller's is TaskNotFound.
     */
    @WithTransaction
    public Uni<Long> cancel(Caller owner, String taskId) {
        return TaskRows.lockTask(owner, taskId).chain(task -> {
            if (task.isTerminal()) {
                return Uni.createFrom().failure(new A2AException.TaskNotCancelable(taskId, task.state));
            }
            return events.changeStatus(task, TaskStatus.newBuilder().setState(TaskState.TASK_STATE_CANCELED).build())
                    .invoke(() -> TaskRows.endRun(task)).replaceWith(task.pk);
        });
    }
}
