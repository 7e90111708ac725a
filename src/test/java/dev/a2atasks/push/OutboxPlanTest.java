package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.support.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The outbox claim exactly as the worker sends it (read back from pg_stat_statements: Hibernate
 * writes it from the HQL in {@link Outbox#claim}), planned by PostgreSQL against a backlog of
 * 20,000 rows of which all but a few are DEAD or not yet due: it locks with SKIP LOCKED, finds due
 * rows through the partial index of pending rows and reads each one's event by its key (never a
 * scan of either table, however many DEAD rows the backlog keeps); "no earlier event still owed"
 * reads pending rows only.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutboxPlanTest {

    private static final String TENANT = "plan-push";

    @Inject
    AgroalDataSource dataSource;

    @AfterAll
    void clean() {
        new Db(dataSource).clearTenant(TENANT);
    }

    private static String single(Statement s, String sql) throws java.sql.SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void theClaimSkipsLockedRowsAndReadsOnlyPendingOnesThroughItsIndex() throws Exception {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        db.insertTask(TENANT, "o", "t1", "c", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
        db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) VALUES ('plan-push', 'o', 't1', 'c1',"
                + " 'https://203.0.113.1/', now())");
        db.execute("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload) SELECT 'plan-push', 'o', 't1', g,"
                + " 'STATUS_UPDATE', '{}' FROM generate_series(0, 19999) AS g");
        db.execute("INSERT INTO push_outbox (tenant, owner, task_id, config_id, event_seq, state, attempts, next_attempt_at, created_at)"
                + " SELECT 'plan-push', 'o', 't1', 'c1', g, CASE WHEN g < 19990 THEN 'DEAD' ELSE 'PENDING' END, 12,"
                + " now() + interval '1 day', now() FROM generate_series(0, 19999) AS g");
        // One row due now: the worker claims only when something is due, and the test reads its claim.
        db.execute("UPDATE push_outbox SET next_attempt_at = now() WHERE tenant = 'plan-push' AND event_seq = 19990");
        db.execute("ANALYZE push_outbox");

        String claim = null;
        long deadline = System.currentTimeMillis() + 10_000;
        db.resetStatementStatistics();
        while (claim == null && System.currentTimeMillis() < deadline) {
            Thread.sleep(100); // the worker claims on every poll
            String found = db.queryText("SELECT query FROM pg_stat_statements WHERE query ILIKE '%from push_outbox%skip locked%' LIMIT 1");
            claim = found.isBlank() ? null : found.trim();
        }
        assertTrue(claim != null, "the worker's claim was seen");
        assertTrue(claim.toLowerCase().contains("not exists"), claim);

        // Planned as the service's connections plan it (plan_cache_mode=force_custom_plan, see
        // application.properties): prepared as recorded, EXPLAINed with the values the worker binds:
        // now for the timestamps, the state name for text (Hibernate binds the HQL literals), a batch size.
        StringBuilder plan = new StringBuilder();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan");
            s.execute("PREPARE claim AS " + claim);
            String types = single(s, "SELECT parameter_types::text FROM pg_prepared_statements WHERE name = 'claim'");
            List<String> args = new ArrayList<>();
            for (String type : types.substring(1, types.length() - 1).split(",")) {
                String t = type.replace("\"", "");
                args.add(t.startsWith("timestamp") ? "now()" : t.equals("integer") || t.equals("bigint") ? "64" : "'PENDING'");
            }
            try (ResultSet rs = s.executeQuery("EXPLAIN EXECUTE claim(" + String.join(", ", args) + ")")) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            s.execute("DEALLOCATE claim");
        }
        String text = plan.toString();
        assertTrue(text.contains("LockRows"), text);
        assertTrue(text.contains("push_outbox_due_idx"), "due rows through the partial index:\n" + text);
        assertTrue(text.contains("task_events_pkey"), "each claimed row's event by its key:\n" + text);
        assertFalse(text.contains("Seq Scan on push_outbox"), text);
        assertFalse(text.contains("Seq Scan on task_events"), text);
    }
}
