package dev.a2atasks.task.store;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * The writes of a mirror: copies of a remote agent's tasks, stored under the mirror's local scope
 * and named by their source ({@code tasks.mirror_source}). A source writes, extends and retires only
 * its own copies: a task of the same scope that the owner created with SendMessage, or another
 * source copied, is never touched (it is reported {@link Upserted#foreign}).
 */
@ApplicationScoped
public class MirrorCopies {

    /**
     * Copies whose source no longer has them: deleted with their messages, artifacts and events, or
     * (when {@code delete} is false) kept and marked {@code {"a2aTasksMirror": {"deletedAtSource": time}}}
     * in their metadata, once. Returns how many rows changed.
     */
    @WithTransaction
    public Uni<Integer> retireCopies(Caller scope, String source, List<String> ids, boolean delete) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        if (delete) {
            // Only this source's copies: the ids are checked against the task rows, and the events follow their task.
            return TaskEventEntity.delete("tenant = ?1 and owner = ?2 and taskId in (select t.id from TaskEntity t where t.tenant = ?1"
                    + " and t.owner = ?2 and t.mirrorSource = ?3 and t.id in ?4)", scope.tenant(), scope.subject(), source, ids)
                    .chain(() -> TaskEntity.delete("tenant = ?1 and owner = ?2 and mirrorSource = ?3 and id in ?4", scope.tenant(),
                            scope.subject(), source, ids))
                    .map(Long::intValue);
        }
        String now = Timestamps.rfc3339(java.time.Instant.now());
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and mirrorSource = ?3 and id in ?4", scope.tenant(), scope.subject(),
                source, ids)
                .withLock(LockModeType.PESSIMISTIC_WRITE).list().map(rows -> {
                    int marked = 0;
                    for (TaskEntity row : rows) {
                        com.google.protobuf.Struct metadata = ProtoJsonColumns.parseStruct(row.metadataJson);
                        com.google.protobuf.Struct notes = metadata.getFieldsOrDefault(COPY_NOTES_KEY,
                                com.google.protobuf.Value.getDefaultInstance()).getStructValue();
                        if (!notes.containsFields("deletedAtSource")) {
                            row.metadataJson = ProtoJsonColumns.printStruct(metadata.toBuilder().putFields(COPY_NOTES_KEY,
                                    com.google.protobuf.Value.newBuilder().setStructValue(notes.toBuilder().putFields(
                                            "deletedAtSource", com.google.protobuf.Value.newBuilder().setStringValue(now).build()))
                                            .build()).build());
                            row.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
                            marked++;
                        }
                    }
                    return marked;
                });
    }

    /** Where the service notes what it did to a copied task (a history gap, a task deleted at its source). */
    public static final String COPY_NOTES_KEY = "a2aTasksMirror";

    /**
     * What {@link #upsert} changed: nothing at all for a copy equal to the stored task, nor for a
     * task of the scope that is not this source's copy ({@code foreign}: the owner's own, another
     * source's), which is never touched.
     */
    public record Upserted(boolean created, boolean taskChanged, int messagesAdded, int artifactsWritten, boolean historyGap,
            boolean foreign) {
        static final Upserted NOTHING = new Upserted(false, false, 0, 0, false, false);
        static final Upserted FOREIGN = new Upserted(false, false, 0, 0, false, true);

        public boolean changed() {
            return created || taskChanged || messagesAdded > 0 || artifactsWritten > 0;
        }
    }

    /**
     * Whether a stored task is this source's copy. A task stored before copies named their source
     * (V10), never run since and not created by a SendMessage, is taken for one and adopted.
     */
    static boolean copyOf(TaskEntity row, String source) {
        return source.equals(row.mirrorSource)
                || (row.mirrorSource == null && row.originMessageId == null && row.runInputSeq == null && row.runId == null);
    }

    /**
     * Makes the stored task match a copy of it from elsewhere (a mirrored agent), writing only what
     * differs: status, context and metadata when they changed; messages not stored yet (by message
     * id) appended in the copy's order; artifacts whose content changed rewritten, new ones
     * appended. A copy equal to the stored task writes nothing and takes no row lock.
     *
     * <p>{@code historyLength} is the tail length the copy was fetched with (0: unknown). A full
     * tail that shares no message with the stored history may have skipped messages between the
     * two: the first new message then carries {@code {"a2aTasksMirror": {"historyGapBefore": true}}}
     * in its metadata, so readers of the copy see the gap.
     */
    public Uni<Upserted> upsert(Caller owner, String source, Task task, int historyLength) {
        // First a plain read: a copy equal to the stored task (an idle sync's usual case) ends here.
        return Panache.withSession(() -> stored(owner, source, task)).chain(current -> current != null
                ? Uni.createFrom().item(current)
                : Panache.withTransaction(() -> TaskRows.statusTimestampsGiven()
                        .chain(() -> TaskRows.findLocked(owner, task.getId()))
                        .chain(row -> {
                            if (row == null) {
                                return TaskRows.insert(owner, task, source).replaceWith(
                                        new Upserted(true, false, task.getHistoryCount(), task.getArtifactsCount(), false, false));
                            }
                            if (!copyOf(row, source)) {
                                return Uni.createFrom().item(Upserted.FOREIGN);
                            }
                            row.mirrorSource = source;
                            return update(row, task, historyLength);
                        })));
    }

    /**
     * What a plain read already settles: {@link Upserted#NOTHING} when the stored copy equals the
     * given one (same fields, every message and artifact present and equal), {@link Upserted#FOREIGN}
     * when the task is not this source's copy; null when there is something to write.
     */
    private static Uni<Upserted> stored(Caller owner, String source, Task task) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and id = ?3", owner.tenant(), owner.subject(), task.getId())
                .firstResult()
                .chain(row -> {
                    if (row == null) {
                        return Uni.createFrom().nullItem();
                    }
                    if (!copyOf(row, source)) {
                        return Uni.createFrom().item(Upserted.FOREIGN);
                    }
                    if (row.mirrorSource == null || differs(row, task)) {
                        return Uni.createFrom().nullItem();
                    }
                    return newMessages(row, task).chain(fresh -> !fresh.isEmpty() ? Uni.createFrom().nullItem()
                            : artifactsCurrent(row, task).map(current -> current ? Upserted.NOTHING : null));
                });
    }

    private Uni<Upserted> update(TaskEntity row, Task task, int historyLength) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        boolean taskChanged = differs(row, task);
        if (taskChanged) {
            row.contextId = task.getContextId();
            if (!ProtoJsonColumns.parseStruct(row.metadataJson).equals(task.getMetadata())) {
                row.metadataJson = ProtoJsonColumns.printStruct(task.getMetadata());
            }
            TaskStatus status = task.getStatus();
            if (!status.hasTimestamp() && sameStatus(row, status)) {
                // A copy without a timestamp keeps the stored one rather than moving on every sync.
                status = status.toBuilder().setTimestamp(Timestamps.toProto(row.statusTimestamp.toInstant())).build();
            }
            TaskRows.applyStatus(row, status, now);
        }
        boolean historyStored = row.nextSeq > 0;
        return newMessages(row, task).chain(fresh -> {
            boolean gap = historyLength > 0 && historyStored && !fresh.isEmpty()
                    && fresh.size() == task.getHistoryCount() && task.getHistoryCount() >= historyLength;
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (int i = 0; i < fresh.size(); i++) {
                Message message = i == 0 && gap ? withNote(fresh.get(i), "historyGapBefore", true) : fresh.get(i);
                MessageEntity entity = TaskRows.toEntity(row.pk, row.owner, row.nextSeq++, message, now);
                chain = chain.chain(() -> entity.persist()).replaceWithVoid();
            }
            if (!fresh.isEmpty() || taskChanged) {
                row.updatedAt = now;
            }
            return chain.chain(() -> writeArtifacts(row, task))
                    .map(artifacts -> new Upserted(false, taskChanged, fresh.size(), artifacts, gap, false));
        });
    }

    /**
     * Appends messages of a copied transcript (a mirror with full histories) to the stored copy of
     * a task, oldest first, after the messages it holds, skipping message ids it holds already: a
     * page appended twice (a retry) adds nothing. The task row is locked first, so two syncs of one
     * task cannot interleave their appends. Answers how many messages were added.
     */
    @WithTransaction
    public Uni<Integer> appendCopied(Caller owner, String source, String taskId, List<Message> messages) {
        if (messages.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<String> ids = messages.stream().map(Message::getMessageId).toList();
        return TaskRows.lockTask(owner, taskId).chain(task -> !copyOf(task, source) ? Uni.createFrom().item(0)
                : MessageEntity.<MessageEntity>list("taskPk = ?1 and owner = ?2 and messageId in ?3", task.pk, task.owner, ids)
                .chain(stored -> {
                    Set<String> held = stored.stream().map(m -> m.messageId).collect(Collectors.toSet());
                    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    int added = 0;
                    for (Message message : messages) {
                        if (held.add(message.getMessageId())) {
                            MessageEntity entity = TaskRows.toEntity(task.pk, task.owner, task.nextSeq++, message, now);
                            chain = chain.chain(() -> entity.persist()).replaceWithVoid();
                            added++;
                        }
                    }
                    if (added > 0) {
                        task.updatedAt = now;
                    }
                    int count = added;
                    return chain.replaceWith(count);
                }));
    }

    /** The copy's messages the stored task does not have yet, in the copy's order. */
    private static Uni<List<Message>> newMessages(TaskEntity row, Task task) {
        if (task.getHistoryCount() == 0) {
            return Uni.createFrom().item(List.of());
        }
        List<String> ids = task.getHistoryList().stream().map(Message::getMessageId).toList();
        return MessageEntity.<MessageEntity>list("taskPk = ?1 and owner = ?2 and messageId in ?3", row.pk, row.owner, ids).map(stored -> {
            Set<String> known = stored.stream().map(m -> m.messageId).collect(Collectors.toSet());
            return task.getHistoryList().stream().filter(m -> known.add(m.getMessageId())).toList();
        });
    }

    /** Whether the copy's task-level fields (context, metadata, status) differ from the stored row. */
    private static boolean differs(TaskEntity row, Task task) {
        if (!row.contextId.equals(task.getContextId()) || !sameStatus(row, task.getStatus())
                || !ProtoJsonColumns.parseStruct(row.metadataJson).equals(task.getMetadata())) {
            return true;
        }
        if (!task.getStatus().hasTimestamp()) {
            return false;
        }
        java.time.Instant given = Timestamps.fromProto(task.getStatus().getTimestamp()).orElse(null);
        // The column keeps microseconds: a copy with nanoseconds is the same instant once rounded.
        return given == null || Math.abs(java.time.Duration.between(row.statusTimestamp.toInstant(), given).toNanos()) >= 1000;
    }

    private static boolean sameStatus(TaskEntity row, TaskStatus status) {
        Message stored = row.statusMessageJson == null ? null
                : ProtoJsonColumns.parse(row.statusMessageJson, Message.newBuilder()).build();
        return row.state.equals(status.getState().name())
                && java.util.Objects.equals(stored, status.hasMessage() ? status.getMessage() : null);
    }

    /** Whether every artifact of the copy is stored, with the same content. */
    private static Uni<Boolean> artifactsCurrent(TaskEntity row, Task task) {
        if (task.getArtifactsCount() == 0) {
            return Uni.createFrom().item(true);
        }
        return ArtifactEntity.<ArtifactEntity>list("taskPk = ?1 and owner = ?2", row.pk, row.owner).map(stored -> {
            Map<String, Artifact> byId = stored.stream().collect(Collectors.toMap(a -> a.artifactId, MirrorCopies::stored));
            return task.getArtifactsList().stream().allMatch(a -> a.equals(byId.get(a.getArtifactId())));
        });
    }

    /** Writes the copy's artifacts that are new or differ from the stored ones; returns how many. */
    private static Uni<Integer> writeArtifacts(TaskEntity row, Task task) {
        return ArtifactEntity.<ArtifactEntity>list("taskPk = ?1 and owner = ?2", row.pk, row.owner).chain(stored -> {
            Map<String, ArtifactEntity> byId = stored.stream().collect(Collectors.toMap(a -> a.artifactId, a -> a));
            int nextOrd = stored.stream().mapToInt(a -> a.ord + 1).max().orElse(0);
            Uni<Void> chain = Uni.createFrom().voidItem();
            int written = 0;
            for (Artifact artifact : task.getArtifactsList()) {
                ArtifactEntity current = byId.get(artifact.getArtifactId());
                if (current != null && stored(current).equals(artifact)) {
                    continue;
                }
                written++;
                ArtifactEntity replacement = TaskRows.toEntity(row.pk, row.owner, current != null ? current.ord : nextOrd++, artifact);
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
            return chain.replaceWith(written);
        });
    }

    private static Artifact stored(ArtifactEntity a) {
        return ProtoJsonColumns.artifact(a.artifactId, a.name, a.description, a.partsJson, a.metadataJson, a.extensionsJson);
    }

    /** The message with {@code a2aTasksMirror.<note>} set in its metadata. */
    static Message withNote(Message message, String note, boolean value) {
        com.google.protobuf.Struct.Builder notes = message.getMetadata()
                .getFieldsOrDefault(COPY_NOTES_KEY, com.google.protobuf.Value.getDefaultInstance()).getStructValue().toBuilder()
                .putFields(note, com.google.protobuf.Value.newBuilder().setBoolValue(value).build());
        return message.toBuilder().setMetadata(message.getMetadata().toBuilder()
                .putFields(COPY_NOTES_KEY, com.google.protobuf.Value.newBuilder().setStructValue(notes).build())).build();
    }
}
