package dev.a2atasks.task.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

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
 * A blocking send's read of its task's progress ({@link TaskProgress#PROGRESS}), as the service
 * sends it, among 3,000 tasks of three owners: one probe of the tasks' scoped unique key; and what
 * it returns, including nothing for another owner's task of the same id.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskProgressPlanTest {

    private static final String TENANT = "task-progress";

    @Inject
    AgroalDataSource db;

    @Inject
    TaskProgress progress;

    @BeforeAll
    void fillTheTable() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "'");
            s.execute("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts, run_input_seq) SELECT '" + TENANT + "',"
                    + " 'owner-' || (g % 3), 'task-' || (g / 3), 'ctx', CASE WHEN g % 3 = 1 THEN 'TASK_STATE_INPUT_REQUIRED'"
                    + " ELSE 'TASK_STATE_WORKING' END, now(), CASE WHEN g % 3 = 1 THEN g END FROM generate_series(0, 2999) AS g");
            s.execute("ANALYZE tasks");
        }
    }

    @AfterAll
    void removeThem() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "'");
            s.execute("ANALYZE tasks");
        }
    }

    @Test
    void theReadIsOneProbeOfTheScopedKey() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan"); // as the service's connections plan
            String plan = Plans.explain(s, TaskProgress.PROGRESS, "'" + TENANT + "', 'owner-1', 'task-7'");
            assertTrue(plan.contains("Index Scan using tasks_scope_id_key on tasks"), plan);
            assertFalse(plan.contains("Seq Scan"), plan);
            assertFalse(plan.contains("Bitmap"), plan);
        }
    }

    @Test
    void itReturnsTheCallersTaskStateAndRunInputAndNothingOfAnotherOwner() {
        TaskProgress.Progress found = progress.of(new Caller(TENANT, "owner-1"), "task-7").await().atMost(Duration.ofSeconds(10));
        assertEquals(new TaskProgress.Progress("TASK_STATE_INPUT_REQUIRED", 22L), found);
        TaskProgress.Progress other = progress.of(new Caller(TENANT, "owner-0"), "task-7").await().atMost(Duration.ofSeconds(10));
        assertEquals(new TaskProgress.Progress("TASK_STATE_WORKING", null), other);
        assertNull(progress.of(new Caller(TENANT, "owner-1"), "task-1000").await().atMost(Duration.ofSeconds(10)),
                "no such task of this owner");
        assertNull(progress.of(new Caller("another-tenant", "owner-1"), "task-7").await().atMost(Duration.ofSeconds(10)),
                "the same owner and id in another tenant is not this task");
    }
}
