package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.support.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The outbox's hand-written statements ({@link OutboxStatements#HEADS}, {@link OutboxStatements#FOLLOWERS},
 * {@link OutboxStatements#LEASE}, {@link OutboxStatements#DELIVERED}), planned by PostgreSQL as the service's
 * connections plan them (plan_cache_mode=force_custom_plan, see application.properties) against a
 * backlog of 40,000 rows: one registration's 20,000, all but a few DEAD or not yet due, and
 * another's 20,000 pending for an hour. The claim locks with SKIP LOCKED and finds due rows
 * through the partial index of pending rows; every other statement reaches its rows by their keys
 * (a delete, by the index of leased rows: only what the worker holds). None scans push_outbox or
 * task_events, however many rows the backlog keeps.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutboxPlanTest {

    private static final String TENANT = "plan-push";
    private static final String KEYS = "'{plan-push}', '{o}', '{t1}', '{c1}', '{19990}'";

    @Inject
    AgroalDataSource dataSource;

    @BeforeAll
    void backlog() {
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
        db.execute("UPDATE push_outbox SET next_attempt_at = now() WHERE tenant = 'plan-push' AND event_seq = 19990");
        // Another task's 20,000 pending rows, none due yet (a webhook down for a while): the pending index is no shortcut.
        db.insertTask(TENANT, "o", "t2", "c", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
        db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) VALUES ('plan-push', 'o', 't2', 'c1',"
                + " 'https://203.0.113.2/', now())");
        db.execute("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload) SELECT 'plan-push', 'o', 't2', g,"
                + " 'STATUS_UPDATE', '{}' FROM generate_series(0, 19999) AS g");
        db.execute("INSERT INTO push_outbox (tenant, owner, task_id, config_id, event_seq, state, attempts, next_attempt_at, created_at)"
                + " SELECT 'plan-push', 'o', 't2', 'c1', g, 'PENDING', 3, now() + interval '1 hour', now() FROM generate_series(0, 19999) AS g");
        db.execute("ANALYZE push_outbox");
        db.execute("ANALYZE task_events");
    }

    @AfterAll
    void clean() {
        new Db(dataSource).clearTenant(TENANT);
    }

    /** The statement prepared as written, EXPLAINed with these arguments. */
    private String plan(String sql, String arguments) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan");
            s.execute("PREPARE planned AS " + sql);
            try (ResultSet rs = s.executeQuery("EXPLAIN EXECUTE planned(" + arguments + ")")) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            } finally {
                s.execute("DEALLOCATE planned");
            }
        }
        return plan.toString();
    }

    private static void scansNoTable(String plan) {
        assertFalse(plan.contains("Seq Scan on push_outbox"), plan);
        assertFalse(plan.contains("Seq Scan on task_events"), plan);
    }

    @Test
    void theClaimSkipsLockedRowsAndFindsDueOnesThroughThePendingIndex() throws Exception {
        String plan = plan(OutboxStatements.HEADS, "now(), '{}', '{}', 64");
        assertTrue(plan.contains("LockRows"), plan);
        assertTrue(plan.contains("push_outbox_due_idx"), "due rows through the partial index:\n" + plan);
        assertTrue(plan.contains("task_events_pkey"), "each claimed row's event by its key:\n" + plan);
        scansNoTable(plan);
    }

    @Test
    void theEventsAfterAClaimedOneAreReadByTheirKeys() throws Exception {
        String plan = plan(OutboxStatements.FOLLOWERS, KEYS + ", now(), 15");
        assertTrue(plan.contains("push_outbox_pkey"), plan);
        assertTrue(plan.contains("task_events_pkey"), plan);
        scansNoTable(plan);
    }

    @Test
    void leasingAndDeletingReachTheirRowsByKey() throws Exception {
        String lease = plan(OutboxStatements.LEASE, "'worker', now(), " + KEYS);
        assertTrue(lease.contains("push_outbox_pkey"), lease);
        scansNoTable(lease);
        String delivered = plan(OutboxStatements.DELIVERED, "'worker', " + KEYS);
        assertTrue(delivered.contains("push_outbox_pkey") || delivered.contains("push_outbox_lease_idx"), delivered);
        scansNoTable(delivered);
    }
}
