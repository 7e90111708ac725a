package dev.a2atasks.task.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.task.store.ArtifactEntity;
import dev.a2atasks.task.store.MessageEntity;
import dev.a2atasks.task.store.TaskEntity;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * The simple reads, through the Panache entities: one task by its key (the demo data's check),
 * a page's artifacts, a stream's locked snapshot. They need no hand-kept column list, so they use
 * the mapping the writer uses; statements whose plan or round trips matter are SQL: the keyset
 * page and the count ({@link TaskPageQueries}), history tails ({@link HistoryTails}), GetTask's
 * one task ({@link TaskDocument}).
 */
@ApplicationScoped
public class TaskReads {

    /** The caller's task with this id, or null: the scope is part of the key, never a filter after it. */
    @WithSession
    public Uni<TaskView> task(Caller caller, String id) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and id = ?3", caller.tenant(), caller.subject(), id)
                .firstResult()
                .map(row -> row == null ? null : view(row));
    }

    /**
     * The ids of a mirror source's copies in a scope after {@code after} in id order, at most
     * {@code limit}: a reconciliation pages through its copies with it (a range of the copies'
     * index per page, whatever else the scope holds).
     */
    @WithSession
    public Uni<List<String>> copiesAfter(Caller scope, String source, String after, int limit) {
        return TaskEntity.find("select id from TaskEntity where tenant = ?1 and owner = ?2 and mirrorSource = ?3 and id > ?4 order by id",
                scope.tenant(), scope.subject(), source, after).page(0, limit).project(String.class).list();
    }

    /**
     * Which of these message ids the caller's task holds (a transcript copy's question); empty
     * when the caller has no such task. A seek per id on the index of (task_pk, message_id).
     */
    @WithSession
    public Uni<List<String>> heldMessageIds(Caller caller, String taskId, java.util.Collection<String> messageIds) {
        return TaskEntity.find("select m.messageId from MessageEntity m, TaskEntity t where m.taskPk = t.pk and m.owner = t.owner"
                + " and t.tenant = ?1 and t.owner = ?2 and t.id = ?3 and m.messageId in ?4",
                caller.tenant(), caller.subject(), taskId, messageIds).project(String.class).list();
    }

    /** Whether the caller's task holds any message: every message appended advances its next seq. */
    @WithSession
    public Uni<Boolean> hasMessages(Caller caller, String taskId) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and id = ?3", caller.tenant(), caller.subject(), taskId)
                .firstResult().map(row -> row != null && row.nextSeq > 0);
    }

    /**
     * Every artifact of these tasks of the owner's, in production order, keyed by task row key. The
     * keys come from a page already scoped to the caller; one statement for the whole page.
     */
    @WithSession
    public Uni<Map<Long, List<ArtifactView>>> artifacts(String owner, List<Long> taskKeys) {
        return ArtifactEntity.<ArtifactEntity>list("taskPk in ?1 and owner = ?2 order by taskPk, ord", taskKeys, owner).map(rows -> {
            Map<Long, List<ArtifactView>> byTask = new HashMap<>();
            for (ArtifactEntity a : rows) {
                byTask.computeIfAbsent(a.taskPk, k -> new ArrayList<>()).add(new ArtifactView(
                        a.artifactId, a.name, a.description, a.partsJson, a.metadataJson, a.extensionsJson));
            }
            return byTask;
        });
    }

    /** A stream's snapshot: the task row (its event number, state and run) and the task as GetTask shows it. */
    public record Snapshot(TaskEntity row, TaskView task) {
    }

    /**
     * The caller's task, share-locked until the surrounding transaction ends: no writer (they all
     * lock the row first) can commit a change to it meanwhile, so what is read under it matches
     * the row's {@code next_event_seq} exactly. Every read runs on the transaction's own
     * connection, one after another: a snapshot never holds one pooled connection while waiting
     * for another (the page's batched history query, on the pool, would). Null when the caller
     * has no such task.
     */
    @WithSession
    public Uni<Snapshot> lockedSnapshot(Caller caller, String id, int historyLength) {
        return TaskEntity.<TaskEntity>find("tenant = ?1 and owner = ?2 and id = ?3", caller.tenant(), caller.subject(), id)
                .withLock(LockModeType.PESSIMISTIC_READ)
                .firstResult()
                .chain(row -> row == null ? Uni.createFrom().nullItem() : historyTail(row.pk, row.owner, historyLength)
                        .chain(history -> artifacts(row.owner, List.of(row.pk))
                                .map(artifacts -> new Snapshot(row, view(row).with(history, artifacts.getOrDefault(row.pk, List.of()))))));
    }

    /** The last {@code length} messages of one task, oldest first; null for 0 (no history asked for). */
    private static Uni<List<MessageView>> historyTail(long taskPk, String owner, int length) {
        if (length == 0) {
            return Uni.createFrom().nullItem();
        }
        return MessageEntity.<MessageEntity>find("taskPk = ?1 and owner = ?2 order by seq desc", taskPk, owner).page(0, length).list().map(rows -> {
            List<MessageView> tail = new ArrayList<>(rows.size());
            for (int i = rows.size() - 1; i >= 0; i--) {
                MessageEntity m = rows.get(i);
                tail.add(new MessageView(m.seq, m.messageId, m.role, m.partsJson, m.metadataJson, m.extensionsJson, m.referenceTaskIdsJson));
            }
            return tail;
        });
    }

    static TaskView view(TaskEntity row) {
        return new TaskView(row.pk, row.id, row.contextId, row.state, row.statusTimestamp.toInstant(),
                row.statusMessageJson, row.metadataJson, null, null);
    }
}
