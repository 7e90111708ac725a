package dev.a2atasks.task.store;

import dev.a2atasks.time.Timestamps;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.TaskArtifactUpdateEvent;
import dev.a2atasks.proto.v1.TaskStatusUpdateEvent;
import dev.a2atasks.error.A2AException;

import dev.a2atasks.auth.Caller;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import dev.a2atasks.metrics.ServiceMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * The A2A write path: tasks, their messages, artifacts and events under a caller's scope, the runs
 * that own them, and their leases' sweep. A mirror's copies are written by {@link MirrorCopies}.
 *
 * <p>Message sequence numbers come from the task row's {@code next_seq}, taken under a row lock,
 * so concurrent appends to one task never collide and a history tail is a contiguous seq range.
 */
@ApplicationScoped
public class TaskStore {

    private final ServiceMetrics metrics;

    TaskStore(ServiceMetrics metrics) {
        this.metrics = metrics;
    }

    /** Stores a new task with its history and artifacts in one transaction; returns its row key. */
    @WithTransaction
    public Uni<Long> create(Caller owner, Task task) {
        return (task.getStatus().hasTimestamp() ? statusTimestampsGiven() : Uni.createFrom().voidItem())
                .chain(() -> insert(owner, task, null));
    }

    /** A task stored as given (a seed, a mirror's copy: {@code mirrorSource} names its source, else null). */
    static Uni<Long> insert(Caller owner, Task task, String mirrorSource) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        TaskEntity row = new TaskEntity();
        row.tenant = owner.tenant();
        row.owner = owner.subject();
        row.mirrorSource = mirrorSource;
        row.id = task.getId();
        row.contextId = task.getContextId();
        row.metadataJson = ProtoJsonColumns.printStruct(task.getMetadata());
        row.createdAt = now;
        row.nextSeq = task.getHistoryCount();
        try {
            applyStatus(row, task.getStatus(), now);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(e);
        }
        return row.<TaskEntity>persist().chain(saved -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (int i = 0; i < task.getHistoryCount(); i++) {
                MessageEntity message = toEntity(saved.pk, i, task.getHistory(i), now);
                chain = chain.chain(() -> message.persist()).replaceWithVoid();
            }
            for (int i = 0; i < task.getArtifactsCount(); i++) {
                ArtifactEntity artifact = toEntity(saved.pk, i, task.getArtifacts(i));
                chain = chain.chain(() -> artifact.persist()).replaceWithVoid();
            }
            return chain.replaceWith(saved.pk);
        });
    }

    /** Appends a message to a task's history; returns its sequence number. */
    @WithTransaction
    public Uni<Long> appendMessage(Caller owner, String taskId, Message message) {
        return lockTask(owner, taskId).chain(task -> {
            long seq = task.nextSeq;
            task.nextSeq = seq + 1;
            task.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
            return toEntity(task.pk, seq, message, task.updatedAt).persist().replaceWith(seq);
        });
    }

    /** Moves a task to a new status and records the event; the status timestamp is now unless the status carries one. */
    @WithTransaction
    public Uni<Void> updateStatus(Caller owner, String taskId, TaskStatus status) {
        return lockTask(owner, taskId).chain(task -> changeStatus(task, status));
    }

    // ---- The A2A write path: a user's message, the agent's runs, cancellation ------------------

    /**
     * Where a user's message went: its task, its history seq ({@code inputSeq}), whether it created
     * the task or was a retry of one already stored, and the run this process must now start
     * ({@code start}): for this message, for one queued before it, or null while another run is
     * going (the message is queued) or for a retry.
     */
    public record Accepted(long taskPk, String taskId, String contextId, long inputSeq, boolean created, boolean duplicate,
            Run start) {
    }

    /** Who runs a task and until when, unless renewed: a process, for {@code duration}. */
    public record Lease(String owner, java.time.Duration duration) {
        public OffsetDateTime expiry() {
            return OffsetDateTime.now(ZoneOffset.UTC).plus(duration);
        }
    }

    /** One run of the agent: its fencing token, and the user message it answers (history seq, content). */
    public record Run(java.util.UUID id, long inputSeq, Message input) {
    }

    /** What a run writes through: the caller's task, and the run that must still own it. */
    public record RunRef(Caller owner, String taskId, java.util.UUID runId) {
    }

    /**
     * A new task for a user's message: SUBMITTED, the message its first history entry, and a run
     * for it leased to the process that will start it. A message id this caller already created a
     * task with answers that task as a retry (the race of two such retries ends in
     * {@link #isOriginConflict} for one of them; see {@link #originOf}).
     */
    @WithTransaction
    public Uni<Accepted> submit(Caller owner, String taskId, String contextId, Message message, Lease lease, PushConfigEntity push) {
        return findOrigin(owner, message.getMessageId()).chain(retry -> {
            if (retry != null) {
                return Uni.createFrom().item(retry);
            }
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            TaskEntity row = new TaskEntity();
            row.tenant = owner.tenant();
            row.owner = owner.subject();
            row.id = taskId;
            row.contextId = contextId;
            row.createdAt = now;
            row.nextSeq = 1;
            row.originMessageId = message.getMessageId();
            Message stored = message.toBuilder().setTaskId(taskId).setContextId(contextId).build();
            Run run = new Run(java.util.UUID.randomUUID(), 0, stored);
            row.runId = run.id();
            row.runInputSeq = 0L;
            row.leaseOwner = lease.owner();
            row.leaseExpiresAt = lease.expiry();
            applyStatus(row, TaskStatus.newBuilder().setState(TaskState.TASK_STATE_SUBMITTED).build(), now);
            return row.<TaskEntity>persist()
                    .chain(saved -> toEntity(saved.pk, 0, message, now).persist())
                    .chain(() -> push == null ? Uni.createFrom().voidItem() : push.persist().replaceWithVoid())
                    .invoke(metrics::taskCreated)
                    .replaceWith(() -> new Accepted(row.pk, taskId, contextId, 0, true, false, run));
        });
    }

    /** Whether a failed {@link #submit} lost the race to store the same first message (a concurrent retry). */
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
            PushConfigEntity push, int maxPushConfigs) {
        return lockTask(owner, taskId).chain(task -> MessageEntity.<MessageEntity>find("taskPk = ?1 and messageId = ?2", task.pk,
                message.getMessageId()).firstResult().chain(existing -> {
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
                    Uni<?> registered = push == null ? Uni.createFrom().voidItem() : PushStore.saveLocked(push, maxPushConfigs);
                    return registered.chain(() -> appendLocked(task, message)).chain(() -> {
                        task.queuedInputs++;
                        if (runGoing(task)) {
                            return Uni.createFrom().item(new Accepted(task.pk, task.id, task.contextId, seq, false, false, null));
                        }
                        Uni<Run> next = task.queuedInputs == 1
                                ? startRun(task, lease, seq, message.toBuilder().setTaskId(task.id).setContextId(task.contextId).build())
                                : startQueued(task, lease);
                        return next.map(run -> new Accepted(task.pk, task.id, task.contextId, seq, false, false, run));
                    });
                }));
    }

    /** A run owns the task and its lease has not expired (an expired one is taken over: its writes are fenced out). */
    private static boolean runGoing(TaskEntity task) {
        return task.runId != null && task.leaseExpiresAt != null && task.leaseExpiresAt.isAfter(OffsetDateTime.now(ZoneOffset.UTC));
    }

    /** The oldest queued message gets a run. Queued messages are the task's last {@code queued_inputs} user messages. */
    private Uni<Run> startQueued(TaskEntity task, Lease lease) {
        return MessageEntity.<MessageEntity>find("taskPk = ?1 and role = 'ROLE_USER' order by seq desc", task.pk)
                .page(task.queuedInputs - 1, 1).firstResult()
                .chain(oldest -> startRun(task, lease, oldest.seq, message(task, oldest)));
    }

    /** A new run owns the locked task: a fresh fencing token, the lease, WORKING (an event that names its input). */
    private Uni<Run> startRun(TaskEntity task, Lease lease, long inputSeq, Message input) {
        Run run = new Run(java.util.UUID.randomUUID(), inputSeq, input);
        task.runId = run.id();
        task.runInputSeq = inputSeq;
        task.queuedInputs--;
        task.leaseOwner = lease.owner();
        task.leaseExpiresAt = lease.expiry();
        return changeStatus(task, TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING).build()).replaceWith(run);
    }

    /**
     * A run's status update: applied and recorded as an event; an agent message in it is also
     * appended to the history. A state that ends the run's turn ends its ownership: terminal
     * (queued messages then stay unanswered in the history) or interrupted, where the oldest
     * queued message, if any, gets the next run in this same transaction, leased to {@code lease}:
     * it is returned, for the caller to start. Fails with {@link TaskClosedException} once the
     * task is terminal or no longer this run's (canceled, taken over, turn ended).
     */
    @WithTransaction
    public Uni<Run> recordStatus(RunRef ref, TaskStatus status, Lease lease) {
        return lockRunTask(ref).chain(task -> (status.hasMessage() ? appendLocked(task, status.getMessage())
                : Uni.createFrom().voidItem()).chain(() -> changeStatus(task, status)).chain(() -> {
                    if (!TaskStates.isSettled(task.state)) {
                        return Uni.createFrom().nullItem();
                    }
                    if (task.isTerminal() || task.queuedInputs == 0) {
                        endRun(task);
                        return Uni.createFrom().nullItem();
                    }
                    return startQueued(task, lease);
                }));
    }

    /** The artifact upsert: one statement, whatever the size of what is stored; answers whether it created the artifact. */
    static final String UPSERT_ARTIFACT = """
            INSERT INTO artifacts AS a (task_pk, artifact_id, ord, name, description, parts, metadata, extensions)
            VALUES (?1, ?2, (SELECT coalesce(max(o.ord) + 1, 0) FROM artifacts o WHERE o.task_pk = ?1),
                    ?3, ?4, CAST(CAST(?5 AS text) AS jsonb), CAST(CAST(?6 AS text) AS jsonb), CAST(CAST(?7 AS text) AS jsonb))
            ON CONFLICT (task_pk, artifact_id) DO UPDATE SET %s
            RETURNING (a.xmax = 0) AS created""";
    /** A chunk: its parts go after the stored ones; nothing stored is read back into the service. */
    static final String APPEND_ARTIFACT = UPSERT_ARTIFACT.formatted("parts = a.parts || EXCLUDED.parts");
    private static final String REPLACE_ARTIFACT = UPSERT_ARTIFACT.formatted("name = EXCLUDED.name, description = EXCLUDED.description,"
            + " parts = EXCLUDED.parts, metadata = EXCLUDED.metadata, extensions = EXCLUDED.extensions");

    /**
     * A run's artifact update: a new artifact, a replacement ({@code append} false), or more
     * parts for one sent before ({@code append} true; created if it was not). Recorded as an
     * event whose {@code append} is true only when parts were added to a stored artifact, so the
     * first chunk reads as the artifact's start. One SQL statement writes the artifact.
     */
    @WithTransaction
    public Uni<Void> recordArtifact(RunRef ref, Artifact artifact, boolean append, boolean lastChunk) {
        return lockRunTask(ref).chain(task -> Panache.getSession().chain(session -> session
                .createNativeQuery(append ? APPEND_ARTIFACT : REPLACE_ARTIFACT, Boolean.class)
                .setParameter(1, task.pk)
                .setParameter(2, artifact.getArtifactId())
                .setParameter(3, artifact.getName().isEmpty() ? null : artifact.getName())
                .setParameter(4, artifact.getDescription().isEmpty() ? null : artifact.getDescription())
                .setParameter(5, ProtoJsonColumns.printParts(artifact.getPartsList()))
                .setParameter(6, ProtoJsonColumns.printStruct(artifact.getMetadata()))
                .setParameter(7, ProtoJsonColumns.printStrings(artifact.getExtensionsList()))
                .getSingleResult())
                .chain(created -> {
                    task.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
                    StreamResponse event = StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                            .setTaskId(task.id).setContextId(task.contextId).setArtifact(artifact)
                            .setAppend(append && !created).setLastChunk(lastChunk)).build();
                    return recordEvent(task, "ARTIFACT_UPDATE", event, task.runInputSeq);
                }));
    }

    /**
     * CancelTask: a task that is not terminal becomes CANCELED (recorded as an event), which ends
     * whatever run owns it (its next write is refused) and leaves queued messages unanswered; a
     * terminal one is refused with TaskNotCancelable; another caller's is TaskNotFound.
     */
    @WithTransaction
    public Uni<Long> cancel(Caller owner, String taskId) {
        return lockTask(owner, taskId).chain(task -> {
            if (task.isTerminal()) {
                return Uni.createFrom().failure(new A2AException.TaskNotCancelable(taskId, task.state));
            }
            return changeStatus(task, TaskStatus.newBuilder().setState(TaskState.TASK_STATE_CANCELED).build())
                    .invoke(() -> endRun(task)).replaceWith(task.pk);
        });
    }

    /**
     * Tasks whose lease expired (the process running them died, stalled, or lost the database past
     * the lease), at most {@code limit} per call, in key order: a run that was working ends FAILED
     * with a status message saying so, recorded as an event; a task waiting for its client
     * (INPUT_REQUIRED, AUTH_REQUIRED) only loses the stale lease, it still waits. Returns how many
     * expired leases were handled.
     */
    @WithTransaction
    public Uni<Integer> failExpiredLeases(int limit, String reason) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return TaskEntity.<TaskEntity>find("leaseOwner is not null and leaseExpiresAt < ?1 order by pk", now)
                // Locked, not skipped: a replica sweeping the same rows waits (bounded by lock_timeout),
                // and PostgreSQL re-checks them after the wait, so it passes over them.
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .page(0, limit).list()
                .chain(expired -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (TaskEntity task : expired) {
                        String interrupted = task.leaseOwner;
                        endRun(task);
                        if (TaskStates.isSettled(task.state)) {
                            continue;
                        }
                        Message message = Message.newBuilder().setMessageId(java.util.UUID.randomUUID().toString())
                                .setRole(dev.a2atasks.proto.v1.Role.ROLE_AGENT)
                                .addParts(dev.a2atasks.proto.v1.Part.newBuilder().setText(reason))
                                .setMetadata(com.google.protobuf.Struct.newBuilder().putFields("interruptedInstance",
                                        com.google.protobuf.Value.newBuilder().setStringValue(interrupted).build()))
                                .build();
                        chain = chain.chain(() -> appendLocked(task, message)).chain(() -> changeStatus(task,
                                TaskStatus.newBuilder().setState(TaskState.TASK_STATE_FAILED).setMessage(message).build()));
                    }
                    return chain.replaceWith(expired.size());
                });
    }

    /** No run owns the locked task any more; messages queued on a terminal one will never run. */
    private static void endRun(TaskEntity task) {
        task.runId = null;
        task.leaseOwner = null;
        task.leaseExpiresAt = null;
        if (task.isTerminal()) {
            task.queuedInputs = 0;
        }
    }

    /** The task locked for a write of this run: refused once it is terminal or owned by no run or another. */
    private static Uni<TaskEntity> lockRunTask(RunRef ref) {
        return lockTask(ref.owner(), ref.taskId())
                .onFailure(A2AException.TaskNotFound.class).transform(gone -> new TaskClosedException(ref.taskId(), "deleted"))
                .invoke(task -> {
            if (task.isTerminal()) {
                throw new TaskClosedException(ref.taskId(), task.state);
            }
            if (!ref.runId().equals(task.runId)) {
                throw new TaskClosedException(ref.taskId());
            }
        });
    }

    /** A stored message as the proto the agent is handed. */
    private static Message message(TaskEntity task, MessageEntity row) {
        Message.Builder message = Message.newBuilder().setMessageId(row.messageId).setTaskId(task.id).setContextId(task.contextId)
                .setRole(dev.a2atasks.proto.v1.Role.valueOf(row.role))
                .addAllParts(ProtoJsonColumns.parseParts(row.partsJson))
                .addAllExtensions(ProtoJsonColumns.parseStrings(row.extensionsJson))
                .addAllReferenceTaskIds(ProtoJsonColumns.parseStrings(row.referenceTaskIdsJson));
        if (row.metadataJson != null) {
            message.setMetadata(ProtoJsonColumns.parseStruct(row.metadataJson));
        }
        return message.build();
    }

    /** Thrown to a run's update once its task is terminal or not its own any more: the update is not applied. */
    public static final class TaskClosedException extends RuntimeException {
        TaskClosedException(String taskId, String state) {
            super("Task " + taskId + " is " + state + "; the update was not applied", null, false, false);
        }

        TaskClosedException(String taskId) {
            super("Task " + taskId + " is no longer owned by this run (canceled, taken over, or its turn ended);"
                    + " the update was not applied", null, false, false);
        }
    }

    /** Appends to the history of a task locked by this transaction. */
    private static Uni<Void> appendLocked(TaskEntity task, Message message) {
        long seq = task.nextSeq;
        task.nextSeq = seq + 1;
        task.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
        Message stored = message.toBuilder().setTaskId(task.id).setContextId(task.contextId).build();
        return toEntity(task.pk, seq, stored, task.updatedAt).persist().replaceWithVoid();
    }

    /**
     * Applies a status to a locked task and records the status-update event in the same
     * transaction. The transition is counted here, as it is written: a transaction that then
     * fails to commit (the database failed at commit) was counted too.
     */
    private Uni<Void> changeStatus(TaskEntity task, TaskStatus status) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String before = task.state;
        applyStatus(task, status, now);
        metrics.transition(before, task.state);
        Long inputSeq = task.runId != null ? task.runInputSeq : null;
        if (task.isTerminal()) { // nothing left to run: no lease to keep or to sweep
            endRun(task);
        }
        TaskStatus stored = status.toBuilder().setTimestamp(Timestamps.toProto(task.statusTimestamp.toInstant())).build();
        StreamResponse event = StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(task.id).setContextId(task.contextId).setStatus(stored)).build();
        return recordEvent(task, "STATUS_UPDATE", event, inputSeq);
    }

    /** The PostgreSQL channel on which committed task events are announced; the payload is the task's row key. */
    public static final String EVENTS_CHANNEL = "a2a_task_events";

    private static Uni<Void> recordEvent(TaskEntity task, String kind, StreamResponse event, Long inputSeq) {
        TaskEventEntity row = new TaskEventEntity();
        row.tenant = task.tenant;
        row.owner = task.owner;
        row.taskId = task.id;
        row.seq = task.nextEventSeq;
        task.nextEventSeq = row.seq + 1;
        row.kind = kind;
        row.payloadJson = ProtoJsonColumns.print(event);
        row.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
        row.inputSeq = inputSeq;
        // NOTIFY is transactional: delivered on commit, never for a rolled-back change, and collapsed
        // with identical ones of the same transaction. Small by design: subscribers read the rows.
        // The push channel is told only when the event is owed to a webhook.
        return row.persist().chain(() -> PushStore.enqueue(task, row.seq)).chain(owed -> Panache.getSession().chain(session -> session
                .createNativeQuery(owed > 0
                        ? "SELECT pg_notify('" + EVENTS_CHANNEL + "', ?1), pg_notify('" + PushStore.OUTBOX_CHANNEL + "', '')"
                        : "SELECT pg_notify('" + EVENTS_CHANNEL + "', ?1)")
                .setParameter(1, Long.toString(task.pk))
                .getSingleResult())).replaceWithVoid();
    }

    /**
     * Tells the commit-time re-stamp (migration V5) that this transaction writes status timestamps
     * taken elsewhere (a copy's source, a caller), which must be kept as they are. Transaction-local.
     */
    static Uni<Void> statusTimestampsGiven() {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("SELECT set_config('a2a.status_ts', 'given', true)")
                .getSingleResult()).replaceWithVoid();
    }

    /** A status becomes the row's state, sort key (its timestamp, or now) and status message. */
    static void applyStatus(TaskEntity row, TaskStatus status, OffsetDateTime now) {
        if (status.getState() == TaskState.TASK_STATE_UNSPECIFIED || status.getState() == TaskState.UNRECOGNIZED) {
            throw new IllegalArgumentException("task.status.state is required");
        }
        row.state = status.getState().name();
        row.statusTimestamp = status.hasTimestamp() ? Timestamps.utc(Timestamps.fromProto(status.getTimestamp())
                .orElseThrow(() -> new IllegalArgumentException("task.status.timestamp is not a valid timestamp")))
                // The column keeps microseconds: an event or a webhook that carries this status says what a read will.
                : now.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        row.statusMessageJson = status.hasMessage() ? ProtoJsonColumns.print(status.getMessage()) : null;
        row.updatedAt = now;
    }

    /** The caller's task, row-locked for this transaction, or null. */
    static Uni<TaskEntity> findLocked(Caller owner, String taskId) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and id = ?3", owner.tenant(), owner.subject(), taskId)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(rows -> rows.isEmpty() ? null : rows.get(0)); // (tenant, owner, id) is unique: at most one row
    }

    static Uni<TaskEntity> lockTask(Caller owner, String taskId) {
        return findLocked(owner, taskId)
                .onItem().ifNull().failWith(() -> new A2AException.TaskNotFound(taskId));
    }

    static MessageEntity toEntity(long taskPk, long seq, Message message, OffsetDateTime createdAt) {
        MessageEntity row = new MessageEntity();
        row.taskPk = taskPk;
        row.seq = seq;
        row.messageId = message.getMessageId();
        row.role = message.getRole() == dev.a2atasks.proto.v1.Role.UNRECOGNIZED ? "ROLE_UNSPECIFIED" : message.getRole().name();
        row.partsJson = ProtoJsonColumns.printParts(message.getPartsList());
        row.metadataJson = ProtoJsonColumns.printStruct(message.getMetadata());
        row.extensionsJson = ProtoJsonColumns.printStrings(message.getExtensionsList());
        row.referenceTaskIdsJson = ProtoJsonColumns.printStrings(message.getReferenceTaskIdsList());
        row.createdAt = createdAt;
        return row;
    }

    static ArtifactEntity toEntity(long taskPk, int ord, Artifact artifact) {
        ArtifactEntity row = new ArtifactEntity();
        row.taskPk = taskPk;
        row.artifactId = artifact.getArtifactId();
        row.ord = ord;
        row.name = artifact.getName().isEmpty() ? null : artifact.getName();
        row.description = artifact.getDescription().isEmpty() ? null : artifact.getDescription();
        row.partsJson = ProtoJsonColumns.printParts(artifact.getPartsList());
        row.metadataJson = ProtoJsonColumns.printStruct(artifact.getMetadata());
        row.extensionsJson = ProtoJsonColumns.printStrings(artifact.getExtensionsList());
        return row;
    }

}
