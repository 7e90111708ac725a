package dev.a2atasks.task.store;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.persistence.LockModeType;

/**
 * The row-level steps every writer of a task shares (the A2A writes, a run's writes, a mirror's
 * copies): find and lock the caller's task row, map a proto to its rows, apply a status, append to
 * the history. Each runs inside its caller's transaction and decides nothing. Locking the caller's
 * task is public: push registrations take the same lock before they touch the task's webhooks.
 */
public final class TaskRows {

    private TaskRows() {
    }

    /** The caller's task, row-locked for this transaction, or null. */
    static Uni<TaskEntity> findLocked(Caller owner, String taskId) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and id = ?3", owner.tenant(), owner.subject(), taskId)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(rows -> rows.isEmpty() ? null : rows.get(0)); // (tenant, owner, id) is unique: at most one row
    }

    /** The caller's task, row-locked for this transaction; TaskNotFound when the caller has none of this id. */
    public static Uni<TaskEntity> lockTask(Caller owner, String taskId) {
        return findLocked(owner, taskId)
                .onItem().ifNull().failWith(() -> new A2AException.TaskNotFound(taskId));
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
                MessageEntity message = toEntity(saved.pk, saved.owner, i, task.getHistory(i), now);
                chain = chain.chain(() -> message.persist()).replaceWithVoid();
            }
            for (int i = 0; i < task.getArtifactsCount(); i++) {
                ArtifactEntity artifact = toEntity(saved.pk, saved.owner, i, task.getArtifacts(i));
                chain = chain.chain(() -> artifact.persist()).replaceWithVoid();
            }
            return chain.replaceWith(saved.pk);
        });
    }

    /** Appends to the history of a task locked by this transaction. */
    static Uni<Void> appendLocked(TaskEntity task, Message message) {
        long seq = task.nextSeq;
        task.nextSeq = seq + 1;
        task.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
        Message stored = message.toBuilder().setTaskId(task.id).setContextId(task.contextId).build();
        return toEntity(task.pk, task.owner, seq, stored, task.updatedAt).persist().replaceWithVoid();
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
                : now.truncatedTo(ChronoUnit.MICROS);
        row.statusMessageJson = status.hasMessage() ? ProtoJsonColumns.print(status.getMessage()) : null;
        row.updatedAt = now;
    }

    /** No run owns the locked task any more; messages queued on a terminal one will never run. */
    static void endRun(TaskEntity task) {
        task.runId = null;
        task.leaseOwner = null;
        task.leaseExpiresAt = null;
        if (task.isTerminal()) {
            task.queuedInputs = 0;
        }
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

    /** A stored message as the proto the agent is handed. */
    static Message message(TaskEntity task, MessageEntity row) {
        Message.Builder message = Message.newBuilder().setMessageId(row.messageId).setTaskId(task.id).setContextId(task.contextId)
                .setRole(Role.valueOf(row.role))
                .addAllParts(ProtoJsonColumns.parseParts(row.partsJson))
                .addAllExtensions(ProtoJsonColumns.parseStrings(row.extensionsJson))
                .addAllReferenceTaskIds(ProtoJsonColumns.parseStrings(row.referenceTaskIdsJson));
        if (row.metadataJson != null) {
            message.setMetadata(ProtoJsonColumns.parseStruct(row.metadataJson));
        }
        return message.build();
    }

    static MessageEntity toEntity(long taskPk, String owner, long seq, Message message, OffsetDateTime createdAt) {
        MessageEntity row = new MessageEntity();
        row.taskPk = taskPk;
        row.owner = owner;
        row.seq = seq;
        row.messageId = message.getMessageId();
        row.role = message.getRole() == Role.UNRECOGNIZED ? "ROLE_UNSPECIFIED" : message.getRole().name();
        row.partsJson = ProtoJsonColumns.printParts(message.getPartsList());
        row.metadataJson = ProtoJsonColumns.printStruct(message.getMetadata());
        row.extensionsJson = ProtoJsonColumns.printStrings(message.getExtensionsList());
        row.referenceTaskIdsJson = ProtoJsonColumns.printStrings(message.getReferenceTaskIdsList());
        row.createdAt = createdAt;
        return row;
    }

    static ArtifactEntity toEntity(long taskPk, String owner, int ord, Artifact artifact) {
        ArtifactEntity row = new ArtifactEntity();
        row.taskPk = taskPk;
        row.owner = owner;
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
