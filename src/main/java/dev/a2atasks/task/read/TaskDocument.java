package dev.a2atasks.task.read;

import java.util.ArrayList;
import java.util.List;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.PooledStatements;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * One task as GetTask answers it, in one statement: the task row, its history tail and its
 * artifacts. SQL rather than the entities because this read ends every blocking SendMessage and
 * every CancelTask besides GetTask itself, and through the entities it was three statements in
 * two Hibernate Reactive sessions, one after another. One statement is also one snapshot: the
 * state, the history and the artifacts are those of the same moment, where three reads could
 * each see a later commit than the one before.
 *
 * <p>The statement finds the task once by its scoped unique key and joins the two ranges to it:
 * the tail is a backward scan of the messages key that stops after N rows, the artifacts one
 * range of theirs. Every table is named with the caller's owner, so on a store distributed by
 * owner the statement goes to one node.
 */
@ApplicationScoped
public class TaskDocument {

    /**
     * $1-$3 the task's scoped key, $4 the history length (0: none). A row per part of the answer,
     * {@code part} saying which: 0 the task, 1 a message of its tail (oldest first), 2 an artifact
     * (in production order). The columns are the parts' own, positionally.
     */
    static final String TASK = """
            WITH task AS (
                SELECT pk, id, context_id, state, status_ts, status_message, metadata
                FROM tasks
                WHERE tenant = $1 AND owner = $2 AND id = $3
            )
            SELECT 0 AS part, task.pk AS n, task.id AS a, task.context_id AS b, task.state AS c,
                   task.status_message::text AS d, task.metadata::text AS e, NULL::text AS f,
                   task.status_ts AS at
            FROM task
            UNION ALL
            SELECT 1, tail.seq, tail.message_id, tail.role, tail.parts::text,
                   tail.metadata::text, tail.extensions::text, tail.reference_task_ids::text, NULL
            FROM task CROSS JOIN LATERAL (
                SELECT m.seq, m.message_id, m.role, m.parts, m.metadata, m.extensions, m.reference_task_ids
                FROM messages m
                WHERE m.task_pk = task.pk AND m.owner = $2
                ORDER BY m.seq DESC
                LIMIT $4
            ) AS tail
            UNION ALL
            SELECT 2, a.ord, a.artifact_id, a.name, a.description,
                   a.parts::text, a.metadata::text, a.extensions::text, NULL
            FROM task JOIN artifacts a ON a.task_pk = task.pk AND a.owner = $2
            ORDER BY part, n""";

    private final Pool pool;

    TaskDocument(Pool pool) {
        this.pool = pool;
    }

    /**
     * The caller's task with its last {@code historyLength} messages (history null for 0) and
     * all its artifacts; null when the caller has no such task.
     */
    public Uni<TaskView> read(Caller caller, String id, int historyLength) {
        return PooledStatements.execute(pool, TASK, Tuple.of(caller.tenant(), caller.subject(), id, historyLength)).map(rows -> {
            TaskView task = null;
            List<MessageView> history = historyLength == 0 ? null : new ArrayList<>();
            List<ArtifactView> artifacts = new ArrayList<>();
            for (Row row : rows) {
                switch (row.getInteger(0)) {
                    case 0 -> task = new TaskView(row.getLong(1), row.getString(2), row.getString(3), row.getString(4),
                            row.getOffsetDateTime(8).toInstant(), row.getString(5), row.getString(6), null, null);
                    case 1 -> history.add(new MessageView(row.getLong(1), row.getString(2), row.getString(3),
                            row.getString(4), row.getString(5), row.getString(6), row.getString(7)));
                    default -> artifacts.add(new ArtifactView(row.getString(2), row.getString(3), row.getString(4),
                            row.getString(5), row.getString(6), row.getString(7)));
                }
            }
            return task == null ? null : task.with(history, artifacts);
        });
    }
}
