package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The migrations build the schema, and the ListTasks query shapes (deep into a 4,000-task scope) are answered by a range scan
 * of their composite index with no Sort node, both with literal values and as a prepared
 * statement planned the way the service's connections plan it.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchemaTest {

    @Inject
    AgroalDataSource db;

    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @BeforeAll
    void fillAFewThousandTasks() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant LIKE 'explain-%'");
            // One busy scope (explain-1/owner-2, 4,000 tasks) among others; 4 contexts, 4 states,
            // timestamps tied in threes so the id tiebreaker matters.
            s.execute("""
                    INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts)
                    SELECT CASE WHEN g <= 4000 THEN 'explain-1' ELSE 'explain-' || (g % 3) END,
                           CASE WHEN g <= 4000 THEN 'owner-2' ELSE 'owner-' || (g % 5) END,
                           'task-' || g, 'ctx-' || (g % 4),
                           (ARRAY['TASK_STATE_SUBMITTED','TASK_STATE_WORKING','TASK_STATE_COMPLETED',
                                  'TASK_STATE_FAILED'])[1 + g % 4],
                           timestamptz '2026-01-01 00:00:00+00' + ((g / 3) * interval '1 millisecond')
                    FROM generate_series(1, 8000) AS g
                    """);
            s.execute("ANALYZE tasks");
        }
    }

    @Test
    void migrationsCreateTheTablesAndIndexes() throws SQLException {
        List<String> tables = column("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1");
        assertTrue(tables.containsAll(List.of("tasks", "messages", "artifacts", "flyway_schema_history")), tables.toString());
        List<String> indexes = column("SELECT indexname FROM pg_indexes WHERE tablename = 'tasks' ORDER BY 1");
        assertTrue(indexes.containsAll(List.of("tasks_list_idx", "tasks_list_by_context_idx", "tasks_list_by_state_idx",
                "tasks_scope_id_key")), indexes.toString());
        assertEquals(List.of("task_pk", "seq", "owner"),
                column("SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                        + " WHERE i.indrelid = 'messages'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)"));
        assertEquals(List.of("C"), column("SELECT collation_name FROM information_schema.columns"
                + " WHERE table_name = 'tasks' AND column_name = 'id'"));
        assertEquals(List.of("6"), column("SELECT datetime_precision::text FROM information_schema.columns"
                + " WHERE table_name = 'tasks' AND column_name = 'status_ts'"));
    }

    @ParameterizedTest(name = "{0} filter uses {1}")
    @CsvSource({
            "none,    tasks_list_idx,            ''",
            "context, tasks_list_by_context_idx, AND context_id = 'ctx-3'",
            "state,   tasks_list_by_state_idx,   AND state = 'TASK_STATE_COMPLETED'" })
    void listQueryIsOneIndexRangeScanWithoutSort(String filter, String index, String predicate) throws SQLException {
        String literal = "SELECT id FROM tasks WHERE tenant = 'explain-1' AND owner = 'owner-2' " + predicate
                + " AND (status_ts, id) < (timestamptz '2026-01-01 00:00:01.2+00', 'task-3600')"
                + " ORDER BY status_ts DESC, id DESC LIMIT 51";
        assertIndexScanWithoutSort(explain(literal), index);

        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = " + servicePlanCacheMode());
            s.execute("PREPARE list_" + filter + "(text, text, timestamptz, text) AS SELECT id FROM tasks"
                    + " WHERE tenant = $1 AND owner = $2 " + predicate
                    + " AND (status_ts, id) < ($3, $4) ORDER BY status_ts DESC, id DESC LIMIT 51");
            String generic = text(s.executeQuery("EXPLAIN EXECUTE list_" + filter
                    + "('explain-1', 'owner-2', '2026-01-01 00:00:01.2+00', 'task-3600')"));
            s.execute("DEALLOCATE list_" + filter);
            assertIndexScanWithoutSort(generic, index);
        }
    }

    @Test
    void serviceConnectionsPlanEveryExecutionForItsValues() {
        assertEquals("force_custom_plan", servicePlanCacheMode());
    }

    /** The setting on the service's own (reactive) connections, not on the test's JDBC ones. */
    private String servicePlanCacheMode() {
        return pool.query("SHOW plan_cache_mode").execute().await().indefinitely().iterator().next().getString(0);
    }

    private static void assertIndexScanWithoutSort(String plan, String index) {
        assertTrue(plan.contains("Index Scan using " + index + " on tasks")
                || plan.contains("Index Only Scan using " + index + " on tasks"), plan);
        assertFalse(plan.contains("Sort"), plan);
        assertFalse(plan.contains("Seq Scan"), plan);
        // The cursor is an index condition (a range start), not a filter applied to rows read.
        assertTrue(plan.contains("Index Cond: ((tenant = ") && plan.contains("ROW(status_ts, id) <"), plan);
    }

    private String explain(String sql) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            return text(s.executeQuery("EXPLAIN " + sql));
        }
    }

    private static String text(ResultSet rs) throws SQLException {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
            plan.append(rs.getString(1)).append('\n');
        }
        return plan.toString();
    }

    private List<String> column(String sql) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            return values;
        }
    }
}
