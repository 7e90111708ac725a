package dev.a2atasks.task.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * GetTask's one statement ({@link TaskDocument#TASK}), as the service sends it, among 600 tasks of
 * three owners with 40 messages and 3 artifacts each: one probe of the tasks' scoped unique key,
 * then a backward range of the messages key stopped at the history length and one range of the
 * task's artifacts, nothing scanned whole. And what it returns: the tail oldest first, the
 * artifacts in production order, no history for length 0, nothing of another owner or tenant.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskDocumentPlanTest {

    private static final String TENANT = "task-document";

    @Inject
    AgroalDataSource db;

    @Inject
    TaskDocument documents;

    @BeforeAll
    void fillTheTables() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "'");
            // Task g belongs to owner-(g % 3) with id task-(g / 3): every id exists once per owner.
            s.execute("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts, metadata, next_seq) SELECT '" + TENANT
                    + "', 'owner-' || (g % 3), 'task-' || (g / 3), 'ctx-' || g, 'TASK_STATE_WORKING',"
                    + " timestamptz '2026-12-01 10:00:00+00' + g * interval '1 second', jsonb_build_object('g', g), 40"
                    + " FROM generate_series(0, 599) AS g");
            s.execute("INSERT INTO messages (task_pk, owner, seq, message_id, role, parts) SELECT t.pk, t.owner, n,"
                    + " t.owner || '/' || t.id || '/m' || n, CASE WHEN n % 2 = 0 THEN 'ROLE_USER' ELSE 'ROLE_AGENT' END,"
                    + " jsonb_build_array(jsonb_build_object('text', 'message ' || n)) FROM tasks t, generate_series(0, 39) AS n"
                    + " WHERE t.tenant = '" + TENANT + "'");
            // Artifact ids in the reverse of their production order: the answer must follow ord, not the id.
            s.execute("INSERT INTO artifacts (task_pk, owner, artifact_id, ord, name, parts) SELECT t.pk, t.owner,"
                    + " 'artifact-' || (9 - o), o, t.owner || ' output ' || o, '[{\"text\": \"out\"}]' FROM tasks t,"
                    + " generate_series(0, 2) AS o WHERE t.tenant = '" + TENANT + "'");
            s.execute("ANALYZE tasks");
            s.execute("ANALYZE messages");
            s.execute("ANALYZE artifacts");
        }
    }

    @AfterAll
    void removeThem() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "'");
            s.execute("ANALYZE tasks");
            s.execute("ANALYZE messages");
            s.execute("ANALYZE artifacts");
        }
    }

    @Test
    void theReadIsOneProbeOfTheTaskAndARangeOfEachChildTable() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan"); // as the service's connections plan
            String plan = Plans.explain(s, TaskDocument.TASK, "'" + TENANT + "', 'owner-1', 'task-7', 5");
            assertTrue(plan.contains("Index Scan using tasks_scope_id_key on tasks"), plan);
            assertTrue(plan.contains("Index Scan Backward using messages_pkey on messages"), plan);
            assertTrue(plan.contains("Limit"), "the tail stops at the history length:\n" + plan);
            assertTrue(plan.matches("(?s).*Index Scan using artifacts_\\w+ on artifacts.*"), plan);
            assertFalse(plan.contains("Seq Scan"), plan);
            assertFalse(plan.contains("Bitmap"), plan);
        }
    }

    @Test
    void itAnswersTheCallersTaskWithItsTailAndArtifactsInOrder() {
        TaskView task = read(new Caller(TENANT, "owner-1"), "task-7", 5);
        assertEquals("task-7", task.id());
        assertEquals("ctx-22", task.contextId());
        assertEquals("TASK_STATE_WORKING", task.state());
        assertEquals(java.time.Instant.parse("2026-12-01T10:00:22Z"), task.statusTimestamp());
        assertEquals("{\"g\": 22}", task.metadataJson());
        assertNull(task.statusMessageJson());
        assertEquals(List.of(35L, 36L, 37L, 38L, 39L), task.history().stream().map(MessageView::seq).toList(), "the last five, oldest first");
        MessageView last = task.history().get(4);
        assertEquals("owner-1/task-7/m39", last.messageId());
        assertEquals("ROLE_AGENT", last.role());
        assertEquals("[{\"text\": \"message 39\"}]", last.partsJson());
        assertEquals(List.of("artifact-9", "artifact-8", "artifact-7"), task.artifacts().stream().map(ArtifactView::artifactId).toList());
        assertEquals("owner-1 output 0", task.artifacts().get(0).name());
    }

    @Test
    void historyLengthZeroLeavesHistoryOutButNotTheArtifacts() {
        TaskView task = read(new Caller(TENANT, "owner-2"), "task-7", 0);
        assertNull(task.history());
        assertEquals(3, task.artifacts().size());
        assertTrue(task.artifacts().stream().allMatch(a -> a.name().startsWith("owner-2 ")), "only this owner's artifacts");
    }

    @Test
    void anotherOwnersOrTenantsTaskOfTheSameIdIsNotTheCallers() {
        TaskView other = read(new Caller(TENANT, "owner-0"), "task-7", 100);
        assertEquals("ctx-21", other.contextId());
        assertEquals(40, other.history().size());
        assertTrue(other.history().stream().allMatch(m -> m.messageId().startsWith("owner-0/")), "only this owner's messages");
        assertNull(read(new Caller(TENANT, "owner-1"), "task-200", 5), "no such task of this owner");
        assertNull(read(new Caller("another-tenant", "owner-1"), "task-7", 5), "the same owner and id in another tenant is not this task");
    }

    private TaskView read(Caller caller, String id, int historyLength) {
        return documents.read(caller, id, historyLength).await().atMost(Duration.ofSeconds(10));
    }
}
