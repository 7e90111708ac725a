package dev.a2atasks.task.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.a2atasks.db.PooledStatements;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * History tails for a whole page of tasks in one statement. Each task's tail is a backward range
 * scan of the messages primary key (task_pk, seq, owner) that stops after N rows, so a task with
 * 100,000 messages costs what one with 5 costs, and no message outside the tail is read. The
 * statement names the page's owner: on a store distributed by owner it goes to one node.
 */
@ApplicationScoped
public class HistoryTails {

    /** $1: the page's task keys; $2: messages per task; $3: their owner. Rows come oldest first within each task. */
    static final String TAILS = """
            SELECT tail.task_pk, tail.seq, tail.message_id, tail.role, tail.parts::text,
                   tail.metadata::text, tail.extensions::text, tail.reference_task_ids::text
            FROM unnest($1::bigint[]) AS page(task_pk)
            CROSS JOIN LATERAL (
                SELECT m.*
                FROM messages m
                WHERE m.task_pk = page.task_pk AND m.owner = $3
                ORDER BY m.seq DESC
                LIMIT $2
            ) AS tail
            ORDER BY tail.task_pk, tail.seq""";

    private final Pool pool;

    HistoryTails(Pool pool) {
        this.pool = pool;
    }

    /** The last {@code length} messages of each of the owner's tasks, oldest first, keyed by task row key. */
    public Uni<Map<Long, List<MessageView>>> tails(String owner, Long[] taskKeys, int length) {
        return PooledStatements.execute(pool, TAILS, Tuple.of(taskKeys, length, owner)).map(rows -> {
            Map<Long, List<MessageView>> byTask = new HashMap<>();
            for (Row row : rows) {
                byTask.computeIfAbsent(row.getLong(0), k -> new ArrayList<>()).add(new MessageView(
                        row.getLong(1), row.getString(2), row.getString(3), row.getString(4),
                        row.getString(5), row.getString(6), row.getString(7)));
            }
            return byTask;
        });
    }
}
