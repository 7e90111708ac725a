package dev.a2atasks.task.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.PooledStatements;
import dev.a2atasks.paging.PageCursor;
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
    private static final int TASK_COLUMN_COUNT = 7;

    /**
     * Statement text per filter shape (which filters are present, with or without a cursor):
     * at most 16 page, 4 first-page and 4 count statements, built once, so the prepared-statement
     * cache is hit with the same String instance instead of a freshly built one per request.
     */
    private static final Map<Integer, String> PAGE_SQL = new ConcurrentHashMap<>();
    private static final Map<Integer, String> FIRST_PAGE_SQL = new ConcurrentHashMap<>();
    private static final Map<Integer, String> COUNT_SQL = new ConcurrentHashMap<>();

    private final Pool pool;

    TaskPageQueries(Pool pool) {
        this.pool = pool;
    }

    /**
     * The rows of one page, and the walk's total when the page's own statement read it: on a first
     * page without {@code statusTimestampAfter}; else -1.
     */
    public record Page(List<TaskView> tasks, long total) {
    }

    /**
     * One page (plus one row to tell whether another page exists), newest status first. A first
     * page without {@code statusTimestampAfter} also reads the walk's total from the counters, in
     * the same statement: one round trip, and the total and the rows from one snapshot.
     */
    public Uni<Page> listPage(Caller caller, ListTasksQuery query, PageCursor after, int limit) {
        Filter filter = Filter.of(caller, query);
        List<Object> params = new ArrayList<>(filter.params);
        if (after != null) {
            params.add(Timestamps.utc(Timestamps.ofMicros(after.statusTimestampMicros())));
            params.add(after.taskId());
        }
        params.add(limit);
        boolean withTotal = after == null && (filter.shape & 4) == 0;
        String sql = withTotal ? firstPageSql(filter.shape) : pageSql(filter.shape, after != null);
        return PooledStatements.execute(pool, sql, Tuple.from(params)).map(rows -> {
            List<TaskView> tasks = tasks(rows);
            // No row, no total column: nothing matches, so the total is 0.
            long total = !withTotal ? -1 : rows.size() == 0 ? 0 : rows.iterator().next().getLong(TASK_COLUMN_COUNT);
            return new Page(tasks, total);
        });
    }

    /**
     * How many tasks match a catch-up walk's filters (with {@code statusTimestampAfter}), for its
     * first page: a count of the index range from that timestamp on, which is as long as the
     * catch-up window. (Without that filter the total comes with the page: {@link #firstPageSql}.)
     */
    public Uni<Integer> count(Caller caller, ListTasksQuery query) {
        Filter filter = Filter.of(caller, query);
        return PooledStatements.execute(pool, countSql(filter.shape), Tuple.from(filter.params))
                .map(result -> (int) Math.max(0, Math.min(result.iterator().next().getLong(0), Integer.MAX_VALUE)));
    }

    /**
     * A first page's statement without {@code statusTimestampAfter} (shapes 0-3): the page, plus
     * the counters' sum (migration V9) as a scalar subquery: the up to 8 slot rows of the one
     * counter key the filters name, read once per statement whatever the scope's size.
     */
    static String firstPageSql(int shape) {
        if ((shape & 4) != 0) {
            throw new IllegalArgumentException("a catch-up page is counted by its index range: shape " + shape);
        }
        return FIRST_PAGE_SQL.computeIfAbsent(shape, key -> {
            int next = 3;
            String context = (shape & 1) != 0 ? "$" + next++ : "''";
            String state = (shape & 2) != 0 ? "$" + next : "''";
            String total = ",\n       (SELECT coalesce(sum(n), 0)\n        FROM task_counts\n"
                    + "        WHERE tenant = $1 AND owner = $2 AND by_context = " + ((shape & 1) != 0)
                    + " AND context_id = " + context + " AND state = " + state + ") AS total";
            return pageSql(shape, false).replaceFirst("\n", java.util.regex.Matcher.quoteReplacement(total + "\n"));
        });
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
