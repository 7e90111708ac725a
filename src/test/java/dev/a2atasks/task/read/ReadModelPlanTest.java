package dev.a2atasks.task.read;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The read model's statements, exactly as {@link TaskPageQueries} builds them, planned by
 * PostgreSQL the way the service's connections plan them ({@code force_custom_plan}): for each
 * of the 8 filter shapes, the page (with and without a cursor) reads an index led by the caller's
 * scope, never the table; for every shape but contextId-and-status it is one ordered range scan
 * with no Sort, and the cursor is always an index condition, not a filter; the count is the
 * counters' sum (one key, at most 8 rows) or, with statusTimestampAfter, the index range from it. 4,000 tasks in the scope asked
 * for, 36,000 in others, over the same span of time.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadModelPlanTest {

    private static final String CONTEXT = "'ctx-3'";
    private static final String STATE = "'TASK_STATE_COMPLETED'";
    private static final String AFTER = "'2026-01-01 00:00:00.5+00'";
    private static final String CURSOR = "'2026-01-01 00:00:01.2+00', 'task-3600'";

    @Inject
    AgroalDataSource db;

    @BeforeAll
    void fillTheTable() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant LIKE 'plan-%'");
            s.execute("""
                    INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts)
                    SELECT CASE WHEN g <= 4000 THEN 'plan-1' ELSE 'plan-' || (2 + g % 9) END,
                           CASE WHEN g <= 4000 THEN 'owner-2' ELSE 'owner-' || (g % 5) END,
                           'task-' || g, 'ctx-' || (g % 4),
                           (ARRAY['TASK_STATE_SUBMITTED','TASK_STATE_WORKING','TASK_STATE_COMPLETED',
                                  'TASK_STATE_FAILED'])[1 + (g / 4) % 4],
                           timestamptz '2026-01-01 00:00:00+00' + ((((g - 1) % 4000) / 3) * interval '1 millisecond')
                    FROM generate_series(1, 40000) AS g
                    """);
            s.execute("VACUUM ANALYZE tasks");
            s.execute("VACUUM ANALYZE task_counts");
        }
    }

    @AfterAll
    void removeThem() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant LIKE 'plan-%'");
            s.execute("ANALYZE tasks"); // later tests plan against their own data, not these rows
        }
    }

    static Stream<Integer> shapes() {
        return IntStream.range(0, 8).boxed();
    }

    @ParameterizedTest(name = "shape {0}")
    @MethodSource("shapes")
    void everyPageIsOneIndexRangeScanWithoutSort(int shape) throws SQLException {
        for (boolean withCursor : new boolean[] { false, true }) {
            String plan = explainPrepared(TaskPageQueries.pageSql(shape, withCursor), args(shape, withCursor));
            assertFalse(plan.contains("Seq Scan"), plan);
            if ((shape & 3) == 3) {
                // contextId and status together have no index of their own (noted in the README's persistence table): one of
                // the two is read in order and the other filtered, or the few matches sorted.
                assertTrue(plan.contains("tasks_list_by_"), plan);
            } else {
                assertTrue(plan.contains("Index Scan using " + expectedIndex(shape) + " on tasks")
                        || plan.contains("Index Only Scan using " + expectedIndex(shape) + " on tasks"), plan);
                assertFalse(plan.contains("Sort"), plan);
            }
            assertTrue(plan.contains("Index Cond: ((tenant = "), "led by the scope: " + plan);
            if (withCursor) {
                assertTrue(plan.contains("ROW(status_ts, id) <"), "the cursor enters the index: " + plan);
                assertFalse(plan.lines().anyMatch(line -> line.contains("Filter:") && line.contains("ROW(status_ts, id)")),
                        "the cursor is no filter: " + plan);
            }
        }
    }

    /** With statusTimestampAfter (shapes 4-7) the count reads the index range from that timestamp on. */
    @ParameterizedTest(name = "shape {0}")
    @MethodSource("shapes")
    void theCatchUpCountReadsAnIndexOfTheScope(int shape) throws SQLException {
        if ((shape & 4) == 0) {
            return; // counted by the counters: theCountReadsAtMostEightCounterRows
        }
        String plan = explainPrepared(TaskPageQueries.countSql(shape), args(shape, false).subList(0, 2 + Integer.bitCount(shape)));
        assertFalse(plan.contains("Seq Scan"), plan);
        assertTrue(plan.contains(" tasks_list") || plan.contains(" tasks_scope_id_key"), "an index led by the scope: " + plan);
        assertTrue(plan.contains("(tenant = "), plan);
        assertTrue(plan.contains("status_ts >="), "the range starts at the timestamp: " + plan);
    }

    /**
     * Without it (shapes 0-3) the first page's own statement reads the total: the counters' sum, one
     * key's slots found by the key (an InitPlan, run once), beside the same index range scan of the
     * page, with no sort; the tasks are never counted.
     */
    @ParameterizedTest(name = "shape {0}")
    @MethodSource("shapes")
    void theFirstPageReadsItsTotalFromAtMostEightCounterRows(int shape) throws SQLException {
        if ((shape & 4) != 0) {
            return; // counted by the index range: theCatchUpCountReadsAnIndexOfTheScope
        }
        String plan = explainPrepared(TaskPageQueries.firstPageSql(shape), args(shape, false));
        assertFalse(plan.contains("Seq Scan"), plan);
        assertFalse(plan.contains("Aggregate") && plan.contains("count("), "the tasks are not counted: " + plan);
        assertTrue(plan.contains("InitPlan"), "the total is read once per statement: " + plan);
        assertTrue(plan.contains("task_counts_pkey"), plan);
        assertTrue(plan.contains("Index Cond: ((tenant = 'plan-1'::text) AND (owner = 'owner-2'::text) AND (by_context = "), plan);
        assertTrue(plan.contains(" on tasks"), plan);
        if ((shape & 3) != 3) {
            assertTrue(plan.contains("Index Scan using " + expectedIndex(shape) + " on tasks")
                    || plan.contains("Index Only Scan using " + expectedIndex(shape) + " on tasks"), plan);
            assertFalse(plan.contains("Sort"), plan);
        }
    }

    private static String expectedIndex(int shape) {
        if ((shape & 1) != 0) {
            return "tasks_list_by_context_idx";
        }
        return (shape & 2) != 0 ? "tasks_list_by_state_idx" : "tasks_list_idx";
    }

    /** Typed arguments in the statement's parameter order: scope, filters present, cursor, limit. */
    private static List<String> args(int shape, boolean withCursor) {
        List<String> args = new ArrayList<>(List.of("'plan-1'::text", "'owner-2'::text"));
        if ((shape & 1) != 0) {
            args.add(CONTEXT + "::text");
        }
        if ((shape & 2) != 0) {
            args.add(STATE + "::text");
        }
        if ((shape & 4) != 0) {
            args.add(AFTER + "::timestamptz");
        }
        if (withCursor) {
            String[] cursor = CURSOR.split(", ");
            args.add(cursor[0] + "::timestamptz");
            args.add(cursor[1] + "::text");
        }
        args.add("51");
        return args;
    }

    /** PREPARE the service's statement with parameter types, EXPLAIN EXECUTE it with these values. */
    private String explainPrepared(String sql, List<String> args) throws SQLException {
        List<String> types = args.stream().map(a -> a.endsWith("::text") ? "text" : a.endsWith("::timestamptz") ? "timestamptz"
                : a.endsWith("::boolean") ? "boolean" : "int")
                .toList();
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan");
            s.execute("DEALLOCATE ALL");
            s.execute("PREPARE stmt(" + String.join(", ", types) + ") AS " + sql);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = s.executeQuery("EXPLAIN EXECUTE stmt(" + String.join(", ", args) + ")")) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            s.execute("DEALLOCATE stmt");
            return plan.toString();
        }
    }
}
