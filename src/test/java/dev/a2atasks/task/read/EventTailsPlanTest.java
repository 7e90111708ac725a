package dev.a2atasks.task.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.support.Plans;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * A stream's read of its task's events ({@link EventTails#EVENTS}), as the service sends it, over
 * 200 tasks of 100 events each: a range of the events' key entered at the number and stopped at
 * the limit, whatever the task's other events and the other tasks; and what it returns.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EventTailsPlanTest {

    private static final String TENANT = "event-tails";

    @Inject
    AgroalDataSource db;

    @Inject
    EventTails tails;

    @BeforeAll
    void fillTheTables() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "'");
            s.execute("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts) SELECT '" + TENANT + "', 'owner-' || (g % 3),"
                    + " 'task-' || g, 'ctx', 'TASK_STATE_WORKING', now() FROM generate_series(1, 200) AS g");
            s.execute("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload, input_seq)"
                    + " SELECT t.tenant, t.owner, t.id, n, 'STATUS_UPDATE', jsonb_build_object('statusUpdate', jsonb_build_object('taskId', t.id, 'n', n)),"
                    + " CASE WHEN n % 2 = 0 THEN n END"
                    + " FROM tasks t CROSS JOIN generate_series(0, 99) AS n WHERE t.tenant = '" + TENANT + "'");
            s.execute("VACUUM ANALYZE task_events");
        }
    }

    @AfterAll
    void removeThem() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "'");
            s.execute("ANALYZE task_events");
        }
    }

    @Test
    void theReadIsARangeOfTheEventsKeyStoppedAtTheLimit() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan"); // as the service's connections plan
            String plan = Plans.explain(s, EventTails.EVENTS, "'" + TENANT + "', 'owner-1', 'task-7', 40, 100");
            assertTrue(plan.contains("Limit"), plan);
            assertTrue(plan.contains("Index Scan using task_events_pkey"), plan);
            assertTrue(plan.contains("seq >= "), "entered at the number: " + plan);
            assertFalse(plan.contains("Sort"), "in the key's order: " + plan);
            assertFalse(plan.contains("Seq Scan"), plan);
        }
    }

    @Test
    void itReturnsTheCallersEventsFromTheNumberOnInOrderUpToTheLimit() {
        List<EventTails.Event> events = tails.from(new Caller(TENANT, "owner-1"), "task-7", 40, 5).await().atMost(Duration.ofSeconds(10));
        assertEquals(List.of(40L, 41L, 42L, 43L, 44L), events.stream().map(EventTails.Event::seq).toList());
        assertEquals(40L, events.get(0).inputSeq());
        assertEquals(null, events.get(1).inputSeq());
        assertTrue(events.get(0).payloadJson().contains("\"n\": 40") || events.get(0).payloadJson().contains("\"n\":40"),
                events.get(0).payloadJson());
        assertEquals(List.of(), tails.from(new Caller(TENANT, "owner-2"), "task-7", 0, 5).await().atMost(Duration.ofSeconds(10)),
                "task-7 is owner-1's: another owner reads nothing of it");
        assertEquals(List.of(), tails.from(new Caller(TENANT, "owner-1"), "task-7", 100, 5).await().atMost(Duration.ofSeconds(10)));
    }
}
