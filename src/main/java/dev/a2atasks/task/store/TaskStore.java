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

import dev.a2atasks.auth.Caller;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * The write path: records tasks, their messages and artifacts under a caller's scope.
 *
 * <p>Message sequence numbers come from the task row's {@code next_seq}, taken under a row lock,
 * so concurrent appends to one task never collide and a history tail is a contiguous seq range.
 */
@ApplicationScoped
public class TaskStore {

    /** Stores a new task with its history and artifacts in one transaction; returns its row key. */
    @WithTransaction
    public Uni<Long> create(Caller owner, Task task) {
        return insert(owner, task);
    }

    /**
     * Makes the stored task match a copy of it from elsewhere (a mirrored agent): status, context
     * and metadata are replaced; messages not stored yet (by message id) are appended in the
     * copy's order; artifacts are replaced by id, new ones appended.
     */
    @WithTransaction
    public Uni<Void> upsert(Caller owner, Task task) {
        return findLocked(owner, task.getId())
                .chain(existing -> existing == null ? insert(owner, task).replaceWithVoid() : update(existing, task));
    }

    private Uni<Void> update(TaskEntity row, Task task) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        row.contextId = task.getContextId();
        row.metadataJson = ProtoJsonColumns.printStruct(task.getMetadata());
        applyStatus(row, task.getStatus(), now);
        List<String> messageIds = task.getHistoryList().stream().map(Message::getMessageId).toList();
        Uni<List<MessageEntity>> known = messageIds.isEmpty() ? Uni.createFrom().item(List.of())
                : MessageEntity.list("taskPk = ?1 and messageId in ?2", row.pk, messageIds);
        return known.chain(stored -> {
            Set<String> storedIds = stored.stream().map(m -> m.messageId).collect(Collectors.toSet());
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Message message : task.getHistoryList()) {
                if (storedIds.add(message.getMessageId())) {
                    MessageEntity entity = toEntity(row.pk, row.nextSeq++, message, now);
                    chain = chain.chain(() -> entity.persist()).replaceWithVoid();
                }
            }
            return chain;
        }).chain(() -> task.getArtifactsCount() == 0 ? Uni.createFrom().voidItem() : replaceArtifacts(row.pk, task));
    }

    private Uni<Void> replaceArtifacts(long taskPk, Task task) {
        return ArtifactEntity.<ArtifactEntity>list("taskPk = ?1", taskPk).chain(stored -> {
            Map<String, ArtifactEntity> byId = stored.stream().collect(Collectors.toMap(a -> a.artifactId, a -> a));
            int nextOrd = stored.stream().mapToInt(a -> a.ord + 1).max().orElse(0);
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Artifact artifact : task.getArtifactsList()) {
                ArtifactEntity current = byId.get(artifact.getArtifactId());
                ArtifactEntity replacement = toEntity(taskPk, current != null ? current.ord : nextOrd++, artifact);
                if (current != null) {
                    current.name = replacement.name;
                    current.description = replacement.description;
                    current.partsJson = replacement.partsJson;
                    current.metadataJson = replacement.metadataJson;
                    current.extensionsJson = replacement.extensionsJson;
                } else {
                    chain = chain.chain(() -> replacement.persist()).replaceWithVoid();
                }
            }
            return chain;
        });
    }

    private Uni<Long> insert(Caller owner, Task task) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        TaskEntity row = new TaskEntity();
        row.tenant = owner.tenant();
        row.owner = owner.subject();
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

    /** Moves a task to a new status; the status timestamp is now unless the status carries one. */
    @WithTransaction
    public Uni<Void> updateStatus(Caller owner, String taskId, TaskStatus status) {
        return lockTask(owner, taskId).invoke(task -> applyStatus(task, status, OffsetDateTime.now(ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    /** A status becomes the row's state, sort key (its timestamp, or now) and status message. */
    private static void applyStatus(TaskEntity row, TaskStatus status, OffsetDateTime now) {
        if (status.getState() == TaskState.TASK_STATE_UNSPECIFIED || status.getState() == TaskState.UNRECOGNIZED) {
            throw new IllegalArgumentException("task.status.state is required");
        }
        row.state = status.getState().name();
        row.statusTimestamp = status.hasTimestamp() ? Timestamps.utc(Timestamps.fromProto(status.getTimestamp())
                .orElseThrow(() -> new IllegalArgumentException("task.status.timestamp is not a valid timestamp"))) : now;
        row.statusMessageJson = status.hasMessage() ? ProtoJsonColumns.print(status.getMessage()) : null;
        row.updatedAt = now;
    }

    /** The caller's task, row-locked for this transaction, or null. */
    private static Uni<TaskEntity> findLocked(Caller owner, String taskId) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and id = ?3", owner.tenant(), owner.subject(), taskId)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(rows -> rows.isEmpty() ? null : rows.get(0)); // (tenant, owner, id) is unique: at most one row
    }

    private static Uni<TaskEntity> lockTask(Caller owner, String taskId) {
        return findLocked(owner, taskId)
                .onItem().ifNull().failWith(() -> new dev.a2atasks.error.A2AException.TaskNotFound(taskId));
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
