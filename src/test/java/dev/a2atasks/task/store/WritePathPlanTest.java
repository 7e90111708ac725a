package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.support.Plans;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The write path's hand-written statements, exactly as the service sends them, planned by
 * PostgreSQL over 40,000 tasks, 6,000 artifacts and 10,000 webhook registrations: an artifact chunk and its event are one
 * statement whose next position is a probe of the artifacts' key, and the lease renewal locks its runs' rows through
 * the tasks' primary key; neither reads a table whole.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WritePathPlanTest {

    @Inject
    AgroalDataSource db;

    @BeforeAll
    void fillTheTables() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = 'write-plan'");
            s.execute("""
                    INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts)
                    SELECT 'write-plan', 'owner-' || (g % 7), 'task-' || g, 'ctx', 'TASK_STATE_WORKING',
                           timestamptz '2026-01-01 00:00:00+00' + g * interval '1 millisecond'
                    FROM generate_series(1, 40000) AS g""");
            s.execute("""
                    INSERT INTO artifacts (task_pk, owner, artifact_id, ord, parts)
                    SELECT t.pk, t.owner, 'a' || n, n, '[{"text":"x"}]'
                    FROM tasks t CROSS JOIN generate_series(0, 2) AS n
                    WHERE t.tenant = 'write-plan' AND t.id < 'task-2999'""");
            // Webhooks on every fourth task: the statement's outbox rows must find a task's
            // registrations by their key, as they would in a store where many tasks have them
            // (on a nearly empty push_configs any plan is a scan, and proves nothing).
            s.execute("""
                    INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at)
                    SELECT tenant, owner, id, 'hook', 'https://hooks.example/' || id, now()
                    FROM tasks WHERE tenant = 'write-plan' AND pk % 4 = 0""");
            s.execute("VACUUM ANALYZE tasks");
            s.execute("VACUUM ANALYZE artifacts");
            s.execute("VACUUM ANALYZE push_configs");
        }
    }

    @AfterAll
    void removeThem() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = 'write-plan'");
            s.execute("ANALYZE tasks");
            s.execute("ANALYZE artifacts");
            s.execute("ANALYZE push_configs");
        }
    }

    @Test
    void anArtifactChunkAndItsEventAreOneStatementThatProbesTheArtifactsKey() throws SQLException {
        Map<String, String> values = Map.ofEntries(Map.entry("taskPk", pks("'task-1'")), Map.entry("artifactId", "'a1'"),
                Map.entry("name", "null"), Map.entry("description", "null"), Map.entry("parts", "'[{\"text\":\"y\"}]'"),
                Map.entry("metadata", "'{}'"), Map.entry("extensions", "'[]'"), Map.entry("tenant", "'write-plan'"),
                Map.entry("owner", "'owner-1'"), Map.entry("taskId", "'task-1'"), Map.entry("seq", "7"), Map.entry("kind", "'ARTIFACT_UPDATE'"),
                Map.entry("ifCreated", "'{}'"), Map.entry("otherwise", "'{}'"), Map.entry("createdAt", "now()"), Map.entry("inputSeq", "0"),
                Map.entry("taskKey", "'1'"));
        String prepared = Plans.positional(RunWrites.APPEND_ARTIFACT);
        String arguments = Plans.args(RunWrites.APPEND_ARTIFACT, values);
        String plan = plan("PREPARE chunk AS " + prepared, "EXPLAIN EXECUTE chunk(" + arguments + ")", "DEALLOCATE chunk");
        assertTrue(plan.contains("Conflict Arbiter Indexes: artifacts_pkey"), plan);
        assertTrue(plan.matches("(?s).*Index Only Scan.*on artifacts.*"), "the next position from an index: " + plan);
        assertTrue(plan.contains("Insert on task_events"), "the event in the same statement: " + plan);
        assertFalse(plan.contains("Seq Scan"), plan);
    }

    @Test
    void aRunsUpdateIsOneStatementThatReachesItsTaskByTheScopedKey() throws SQLException {
        String run = "'write-plan', 'owner-1', 'task-1', gen_random_uuid()";
        String status = plan("PREPARE status AS " + RunStatements.STATUS, "EXPLAIN EXECUTE status(" + run
                + ", 'TASK_STATE_WORKING', now(), null, 1, false, 'm', '[]', null, '[]', '[]', '{}')", "DEALLOCATE status");
        String chunk = plan("PREPARE chunk AS " + RunStatements.APPEND_ARTIFACT, "EXPLAIN EXECUTE chunk(" + run
                + ", now(), 'a1', null, null, '[{\"text\":\"y\"}]', '{}', '[]', '{}', '{}')", "DEALLOCATE chunk");
        for (String plan : List.of(status, chunk)) {
            assertTrue(plan.contains("LockRows"), plan);
            assertTrue(plan.contains("Update on tasks"), plan);
            assertTrue(plan.contains("Insert on task_events"), "the event in the same statement: " + plan);
            assertTrue(plan.contains("Insert on push_outbox"), "the event's deliveries in the same statement: " + plan);
            assertTrue(plan.contains("push_configs_pkey"), "the task's registrations by their key: " + plan);
            assertFalse(plan.contains("Seq Scan"), plan);
        }
        assertTrue(status.contains("Insert on messages"), status);
        assertTrue(chunk.contains("Conflict Arbiter Indexes: artifacts_pkey"), chunk);
    }

    @Test
    void theLeaseRenewalLocksItsRowsByPrimaryKey() throws SQLException {
        String plan = plan("PREPARE renew(timestamptz, bigint[], uuid[], text) AS " + RunLeases.RENEW,
                "EXPLAIN EXECUTE renew(now(), ARRAY[" + pks("'task-1', 'task-8', 'task-15'") + "]::bigint[],"
                        + " ARRAY[gen_random_uuid(), gen_random_uuid(), gen_random_uuid()], 'owner-1')", "DEALLOCATE renew");
        assertTrue(plan.contains("tasks_pkey"), plan);
        assertTrue(plan.contains("LockRows"), plan);
        assertFalse(plan.matches("(?s).*Seq Scan on tasks.*"), plan);
    }

    /** The row keys of these tasks, comma-separated (EXECUTE takes no subquery). */
    private String pks(String ids) throws SQLException {
        StringBuilder keys = new StringBuilder();
        try (Connection c = db.getConnection(); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT pk FROM tasks WHERE tenant = 'write-plan' AND id IN (" + ids + ") ORDER BY pk")) {
            while (rows.next()) {
                keys.append(keys.isEmpty() ? "" : ", ").append(rows.getLong(1));
            }
        }
        return keys.toString();
    }

    private String plan(String prepare, String explain, String deallocate) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan"); // as the service's connections plan
            s.execute(prepare);
            try (ResultSet rows = s.executeQuery(explain)) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            s.execute(deallocate);
        }
        return plan.toString();
    }
}
