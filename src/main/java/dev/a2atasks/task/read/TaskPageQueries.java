package dev.a2atasks.task.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.paging.PageCursor;
import dev.a2atasks.task.ListTasksQuery;
import dev.a2atasks.time.Timestamps;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The read model's hand-written SQL for ListTasks: the keyset page and the count, where the
 * statement's plan is the feature (each shape pinned by an EXPLAIN test). Every statement starts from the caller's scope (tenant, owner), so a
 * caller can never read another's rows whatever the other parameters say.
 *
 * <p>A ListTasks page is one range scan of the composite index that matches its filters:
 * {@code (tenant, owner[, context_id | state], status_ts DESC, id DESC)}, entered at the cursor
 * with a row-value comparison, read for pageSize + 1 rows, never skipping rows to get there: page 10,000 costs page 1.
 */
@ApplicationScoped
public class TaskPageQueries {

    private static final String TASK_COLUMNS =
            "pk, id, context_id, state, status_ts, status_message::text, metadata::text";

    /**
     * Statement text per filter shape (which filters are present, with or without a cursor):
     * at most 16 page and 8 count statements, built once, so the prepared-statement cache is hit
     * with the same String instance instead of a freshly built one per request.
     */
    private static final Map<Integer, String> PAGE_SQL = new ConcurrentHashMap<>();
    private static final Map<Integer, String> COUNT_SQL = new ConcurrentHashMap<>();

    private final Pool pool;

    TaskPageQueries(Pool pool) {
        this.pool = pool;
    }

    /** One page (plus one row to tell whether another page exists), newest status first. */
    public Uni<List<TaskView>> listPage(Caller caller, ListTasksQuery query, PageCursor after, int limit) {
        Filter filter = Filter.of(caller, query);
        List<Object> params = new ArrayList<>(filter.params);
        if (after != null) {
            params.add(Timestamps.utc(Timestamps.ofMicros(after.statusTimestampMicros())));
            params.add(after.taskId());
        }
        params.add(limit);
        String sql = pageSql(filter.shape, after != null);
        return pool.preparedQuery(sql).execute(Tuple.from(params)).map(TaskPageQueries::tasks);
    }

    /**
     * The counters' sum for a filter set without {@code statusTimestampAfter} (migration V9): the
     * up to 8 slot rows of one key of the scope, whichever of the four keys the filters name.
     * $1 tenant, $2 owner, $3 by context, $4 context id ('' when not by context), $5 state ('' for any).
     */
    static final String COUNTER_SQL = """
            SELECT coalesce(sum(n), 0)
            FROM task_counts
            WHERE tenant = $1 AND owner = $2 AND by_context = $3 AND context_id = $4 AND state = $5""";

    /**
     * How many tasks the filters select: run on the first page of a walk only. Without
     * {@code statusTimestampAfter} it is the counters' sum, the same at any scope size; with it,
     * a count of the index range from that timestamp on, which is as long as the catch-up window.
     */
    public Uni<Integer> count(Caller caller, ListTasksQuery query) {
        Uni<io.vertx.mutiny.sqlclient.RowSet<Row>> rows;
        if (query.statusTimestampAfter() == null) {
            rows = pool.preparedQuery(COUNTER_SQL).execute(Tuple.of(caller.tenant(), caller.subject(), query.contextId() != null,
                    query.contextId() == null ? "" : query.contextId(), query.status() == null ? "" : query.status().name()));
        } else {
            Filter filter = Filter.of(caller, query);
            rows = pool.preparedQuery(countSql(filter.shape)).execute(Tuple.from(filter.params));
        }
        return rows.map(result -> (int) Math.max(0, Math.min(result.iterator().next().getLong(0), Integer.MAX_VALUE)));
    }

    /** The page statement for a filter shape (see {@link Filter}), with or without a cursor; built once per shape. */
    static String pageSql(int shape, boolean withCursor) {
        return PAGE_SQL.computeIfAbsent(shape * 2 + (withCursor ? 1 : 0), key -> {
            StringBuilder text = new StringBuilder("SELECT ").append(TASK_COLUMNS).append("\nFROM tasks\n").append(Filter.where(shape));
            int next = Filter.parameterCount(shape) + 1;
            if (withCursor) {
                text.append("\n  AND (status_ts, id) < ($").append(next).append(", $").append(next + 1).append(')');
                next += 2;
            }
            return text.append("\nORDER BY status_ts DESC, id DESC\nLIMIT $").append(next).toString();
        });
    }

    /** The counting statement for a filter shape (with statusTimestampAfter: shapes 4-7); built once per shape. */
    static String countSql(int shape) {
        return COUNT_SQL.computeIfAbsent(shape, key -> "SELECT count(*)\nFROM tasks\n" + Filter.where(shape));
    }

    private static List<TaskView> tasks(RowSet<Row> rows) {
        List<TaskView> tasks = new ArrayList<>(rows.size());
        for (Row row : rows) {
            tasks.add(new TaskView(row.getLong(0), row.getString(1), row.getString(2), row.getString(3),
                    row.getOffsetDateTime(4).toInstant(), row.getString(5), row.getString(6), null, null));
        }
        return tasks;
    }


    /**
     * The filters of a query: its parameters, scope first, and its {@code shape}, which numbers
     * the combination of optional filters present (0..7) and determines the WHERE clause.
     */
    private record Filter(List<Object> params, int shape) {
        static Filter of(Caller caller, ListTasksQuery query) {
            List<Object> params = new ArrayList<>(List.of(caller.tenant(), caller.subject()));
            int shape = 0;
            if (query.contextId() != null) {
                params.add(query.contextId());
                shape |= 1;
            }
            if (query.status() != null) {
                params.add(query.status().name());
                shape |= 2;
            }
            if (query.statusTimestampAfter() != null) {
                params.add(Timestamps.utc(query.statusTimestampAfter()));
                shape |= 4;
            }
            return new Filter(params, shape);
        }

        /** Scope (2) plus one parameter per filter present. */
        static int parameterCount(int shape) {
            return 2 + Integer.bitCount(shape);
        }

        /** The WHERE clause shared by a page and its count, parameters numbered in the order above. */
        static String where(int shape) {
            StringBuilder where = new StringBuilder("WHERE tenant = $1 AND owner = $2");
            int next = 3;
            if ((shape & 1) != 0) {
                where.append("\n  AND context_id = $").append(next++);
            }
            if ((shape & 2) != 0) {
                where.append("\n  AND state = $").append(next++);
            }
            if ((shape & 4) != 0) {
                where.append("\n  AND status_ts >= $").append(next);
            }
            return where.toString();
        }
    }
}
