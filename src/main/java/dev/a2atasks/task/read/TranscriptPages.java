package dev.a2atasks.task.read;

import java.util.ArrayList;
import java.util.List;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.PooledStatements;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The read model of ListTaskMessages (history-paging extension): one window of a task's
 * transcript per statement. The task is found by the caller's scope and its id (the unique key),
 * and its messages are one range scan of the messages key (task_pk, seq) entered at the bound and
 * stopped after the page: the page at seq 99,900 costs what the page at seq 0 costs (pinned by
 * TranscriptPlanTest). The task row and its page come in one statement, so a missing task and an
 * empty transcript are told apart without a second round trip. Both tables are named by the
 * caller's owner as a value ($2), not through the join: a store distributed by owner then plans
 * the statement for the one node holding them (CitusRouterPlanTest).
 */
@ApplicationScoped
public class TranscriptPages {

    /** $1 tenant, $2 owner, $3 task id, $4 highest seq served (inclusive), $5 rows. */
    static final String NEWEST_FIRST = page("<=", "DESC");
    /** $1 tenant, $2 owner, $3 task id, $4 lowest seq served (inclusive), $5 rows. */
    static final String OLDEST_FIRST = page(">=", "ASC");

    /**
     * The seq of a message id in the caller's task: one row (the task) when the task is the
     * caller's, its second column null when the task has no such message. Message ids are unique
     * within a task (the write path and the mirror both de-duplicate by id); should two rows ever
     * share one, the first is where a walk starts.
     */
    static final String SEQ_OF_MESSAGE = """
            SELECT (SELECT min(m.seq) FROM messages m WHERE m.task_pk = t.pk AND m.owner = $2 AND m.message_id = $4)
            FROM tasks t
            WHERE t.tenant = $1 AND t.owner = $2 AND t.id = $3""";

    private static String page(String bound, String order) {
        return """
                SELECT t.context_id, m.seq, m.message_id, m.role, m.parts::text,
                       m.metadata::text, m.extensions::text, m.reference_task_ids::text
                FROM tasks t
                LEFT JOIN LATERAL (
                    SELECT *
                    FROM messages
                    WHERE messages.task_pk = t.pk AND messages.owner = $2 AND messages.seq %1$s $4
                    ORDER BY messages.seq %2$s
                    LIMIT $5
                ) AS m ON true
                WHERE t.tenant = $1 AND t.owner = $2 AND t.id = $3
                ORDER BY m.seq %2$s""".formatted(bound, order);
    }

    /** A window of a transcript, in the order asked for, and the task's context id. */
    public record Window(String contextId, List<MessageView> messages) {
    }

    /** Where a message id stands in the caller's task: {@code seq} null when the task has no such message. */
    public record Start(Long seq) {
    }

    private final Pool pool;

    TranscriptPages(Pool pool) {
        this.pool = pool;
    }

    /**
     * Up to {@code limit} messages of the caller's task from {@code bound} on (that seq included),
     * going down (newest first) or up. Null when the caller has no task with this id.
     */
    public Uni<Window> window(Caller caller, String taskId, boolean newestFirst, long bound, int limit) {
        return PooledStatements.execute(pool, newestFirst ? NEWEST_FIRST : OLDEST_FIRST,
                        Tuple.of(caller.tenant(), caller.subject(), taskId, bound, limit))
                .map(TranscriptPages::window);
    }

    /** The seq of a message of the caller's task; null when the caller has no task with this id. */
    public Uni<Start> seqOf(Caller caller, String taskId, String messageId) {
        return PooledStatements.execute(pool, SEQ_OF_MESSAGE, Tuple.of(caller.tenant(), caller.subject(), taskId, messageId))
                .map(rows -> rows.size() == 0 ? null : new Start(rows.iterator().next().getLong(0)));
    }

    private static Window window(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return null;
        }
        String contextId = null;
        List<MessageView> messages = new ArrayList<>(rows.size());
        for (Row row : rows) {
            contextId = row.getString(0);
            if (row.getLong(1) != null) { // the task without a message left to serve: one row, no message
                messages.add(new MessageView(row.getLong(1), row.getString(2), row.getString(3), row.getString(4),
                        row.getString(5), row.getString(6), row.getString(7)));
            }
        }
        return new Window(contextId, messages);
    }
}
