package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.support.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The outbox's hand-written statements on one PostgreSQL ({@link OutboxStatements#CLAIM} and
 * {@link OutboxStatements#DELIVERED}; the Citus ones in {@code CitusOutboxPlanTest}), planned by PostgreSQL as
 * the service's connections plan them (plan_cache_mode=force_custom_plan, see application.properties) against a
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
    private static final Pattern CTE = Pattern.compile("^\\s*CTE (\\w+)$");
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

    /**
     * The claim, one statement: the rows delivered since the last claim deleted by their key; its due
     * heads through the partial index of pending rows, locked with
     * SKIP LOCKED; the events after each and the rows it leases by their keys; each leased row's event
     * by its key. Read part by part (EXPLAIN prints each CTE under its name).
     */
    @Test
    void theClaimFindsDueRowsThroughThePendingIndexAndEverythingElseByKey() throws Exception {
        String plan = plan(OutboxStatements.CLAIM, "now(), '{}', '{}', '{}', '{}', 8, 16, 64, 15, 'worker', now() + interval '1 minute', " + KEYS);
        Map<String, String> parts = parts(plan);
        // The followers are read inside the lease's UPDATE (PostgreSQL folds a CTE used once into its user).
        assertEquals(Set.of("main", "delivered", "tenant_use", "url_use", "heads", "taken", "leased"), parts.keySet(), plan);
        assertTrue(parts.get("delivered").contains("push_outbox_pkey") || parts.get("delivered").contains("push_outbox_lease_idx"),
                "the rows delivered by their key or among the leased:\n" + plan);
        assertTrue(parts.get("heads").contains("LockRows"), plan);
        assertTrue(parts.get("heads").contains("push_outbox_due_idx"), "due rows through the partial index:\n" + plan);
        assertEquals(2, parts.get("leased").split("Index Scan using push_outbox_pkey on push_outbox", -1).length - 1,
                "the events after each head, and then each row leased, by their key:\n" + plan);
        assertTrue(parts.get("main").contains("task_events_pkey"), "each leased row's event by its key:\n" + plan);
        scansNoTable(plan);
    }

    /** The plan's parts: each CTE's lines under its name (those indented below its heading), the statement's own under "main". */
    private static Map<String, String> parts(String plan) {
        Map<String, String> parts = new LinkedHashMap<>();
        String part = "main";
        int depth = -1;
        for (String line : plan.split("\n")) {
            int indent = line.length() - line.stripLeading().length();
            Matcher cte = CTE.matcher(line);
            if (cte.matches()) {
                part = cte.group(1);
                depth = indent;
            } else if (depth >= 0 && indent <= depth) {
                part = "main";
                depth = -1;
            }
            parts.merge(part, line + "\n", String::concat);
        }
        return parts;
    }

    @Test
    void deletingReachesItsRowsByKey() throws Exception {
        String delivered = plan(OutboxStatements.DELIVERED, "'worker', " + KEYS);
        assertTrue(delivered.contains("push_outbox_pkey") || delivered.contains("push_outbox_lease_idx"), delivered);
        scansNoTable(delivered);
    }
}
