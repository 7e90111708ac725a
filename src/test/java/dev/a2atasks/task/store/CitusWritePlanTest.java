package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.CitusProfile;
import dev.a2atasks.support.Plans;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;

/**
 * On a store distributed by owner (three-node Citus), the hand-written writes the service sends
 * there are router queries, each planned as one task on the node holding the caller's rows: an
 * event row, an artifact's upsert at its position, the lease renewal. An event's NOTIFY, a
 * statement of its own there, reads no table and so runs on the coordinator, where the replicas
 * LISTEN. The one-statement CTEs of one PostgreSQL are not sent (Citus would run each as several
 * steps through the coordinator); {@code CitusRoutingTest} shows what a session really sends.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusWritePlanTest {

    private static final String RUN = "uuid '6a4c1c9e-0000-4000-8000-000000000001'";
    private static final String NOW = "timestamptz '2026-12-06 12:00:00+00'";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theWritesSentToCitusAreRouterQueriesAndTheNotifyStaysOnTheCoordinator() throws SQLException {
        Map<String, String> event = Map.of("tenant", "'t'", "owner", "'alice'", "taskId", "'task-1'", "seq", "3", "kind",
                "'STATUS_UPDATE'", "payload", "'{}'", "createdAt", NOW, "inputSeq", "NULL");
        Map<String, String> artifact = Map.of("taskPk", "42", "owner", "'alice'", "artifactId", "'a1'", "ord", "0", "name", "NULL",
                "description", "NULL", "parts", "'[]'", "metadata", "NULL", "extensions", "NULL");
        Map<String, String[]> routed = new LinkedHashMap<>();
        routed.put("an event row (TaskEventLog.EVENT_ROW)", new String[] { TaskEventLog.EVENT_ROW, Plans.args(TaskEventLog.EVENT_ROW, event) });
        routed.put("an artifact chunk at its position (RunWrites.APPEND_ARTIFACT_AT)",
                new String[] { RunWrites.APPEND_ARTIFACT_AT, Plans.args(RunWrites.APPEND_ARTIFACT_AT, artifact) });
        routed.put("the lease renewal of one owner's runs (RunLeases.RENEW)",
                new String[] { RunLeases.RENEW, NOW + ", ARRAY[1, 2]::bigint[], ARRAY[" + RUN + "], 'alice'" });
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            for (Map.Entry<String, String[]> statement : routed.entrySet()) {
                String plan = Plans.explain(s, statement.getValue()[0], statement.getValue()[1]);
                assertEquals(List.of(1), Plans.taskCounts(plan), statement.getKey() + ":\n" + plan);
                assertFalse(plan.contains("Distributed Subplan"), statement.getKey() + ":\n" + plan);
            }
            String announce = Plans.explain(s, TaskEventLog.ANNOUNCE, "'42'");
            assertTrue(Plans.taskCounts(announce).isEmpty() && !announce.contains("Citus"), "planned by the coordinator alone:\n" + announce);
        }
    }
}
