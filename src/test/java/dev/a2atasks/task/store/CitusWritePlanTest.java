package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
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
 * On a store distributed by owner (three-node Citus), every hand-written write of the request
 * path reaches the caller's shard only: no step of its plan goes to more than one shard. The
 * one-statement writes (a task with its first message, a run's status and artifact updates, an
 * event with its NOTIFY) are data-modifying CTEs, which the coordinator runs as a sequence of
 * single-shard steps rather than one router query (Citus plans an INSERT in a WITH as a step of
 * its own); the client still sends one statement. Their last step, the NOTIFY, runs on the
 * coordinator, where the replicas LISTEN: this is asserted too, as a router plan would move it to
 * the worker and no subscriber would hear it. The Hibernate statements of the entity path name
 * the owner beside every key ({@code PartitionKeyTest}) and so route as fast-path router queries.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusWritePlanTest {

    private static final String RUN = "uuid '6a4c1c9e-0000-4000-8000-000000000001'";
    private static final String NOW = "timestamptz '2026-12-06 12:00:00+00'";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyWriteOfOneCallerReachesOneShardAndAnnouncesOnTheCoordinator() throws SQLException {
        String submit = "'t', 'alice', 'task-1', 'ctx-1', " + NOW + ", 'm1', " + RUN + ", 'replica-1', " + NOW
                + ", 'ROLE_USER', '[]', NULL, NULL, NULL";
        Map<String, String[]> announcing = new LinkedHashMap<>();
        announcing.put("a run's status update (RunStatements.STATUS)", statement(RunStatements.STATUS, "'t', 'alice', 'task-1', " + RUN
                + ", 'TASK_STATE_WORKING', " + NOW + ", NULL, 0, false, 'm2', '[]', NULL, NULL, NULL, '{}'"));
        announcing.put("a run's artifact chunk (RunStatements.APPEND_ARTIFACT)", statement(RunStatements.APPEND_ARTIFACT, "'t', 'alice', 'task-1', "
                + RUN + ", " + NOW + ", 'a1', NULL, NULL, '[]', NULL, NULL, '{}', '{}'"));
        Map<String, String> event = Map.of("tenant", "'t'", "owner", "'alice'", "taskId", "'task-1'", "seq", "3", "kind",
                "'STATUS_UPDATE'", "payload", "'{}'", "createdAt", NOW, "inputSeq", "NULL", "taskKey", "'42'");
        announcing.put("an event and its NOTIFY (TaskEventLog.INSERT_EVENT)", statement(TaskEventLog.INSERT_EVENT,
                Plans.args(TaskEventLog.INSERT_EVENT, event)));
        Map<String, String> chunk = new LinkedHashMap<>(event);
        chunk.putAll(Map.of("taskPk", "42", "artifactId", "'a1'", "name", "NULL", "description", "NULL", "parts", "'[]'",
                "metadata", "NULL", "extensions", "NULL", "ifCreated", "'{}'", "otherwise", "'{}'"));
        announcing.put("an artifact chunk and its event (RunWrites.APPEND_ARTIFACT)", statement(RunWrites.APPEND_ARTIFACT,
                Plans.args(RunWrites.APPEND_ARTIFACT, chunk)));

        Map<String, String[]> other = new LinkedHashMap<>();
        other.put("a task and its first message (TaskStore.SUBMIT)", statement(TaskStore.SUBMIT, submit));
        other.put("... with a webhook (TaskStore.SUBMIT_WITH_WEBHOOK)", statement(TaskStore.SUBMIT_WITH_WEBHOOK, submit
                + ", 'cfg-1', 'http://127.0.0.1:9/hook', NULL, NULL, NULL, NULL, " + NOW));

        List<String> wrong = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            String coordinator = "port=" + coordinatorPort(s) + " ";
            for (Map<String, String[]> statements : List.of(announcing, other)) {
                for (Map.Entry<String, String[]> statement : statements.entrySet()) {
                    String[] sqlAndArgs = statement.getValue();
                    String plan = Plans.explain(s, sqlAndArgs[0], sqlAndArgs[1]);
                    List<Integer> steps = Plans.taskCounts(plan);
                    if (steps.isEmpty() || steps.stream().anyMatch(n -> n != 1)) {
                        wrong.add(statement.getKey() + ": a step reaches " + steps + " shards\n" + plan);
                    } else if (statements == announcing && !lastStepNode(plan).contains(coordinator)) {
                        wrong.add(statement.getKey() + ": its NOTIFY does not run on the coordinator\n" + plan);
                    }
                }
            }

            // The lease renewal (one statement per owner, no NOTIFY): a single router query.
            String renewal = Plans.explain(s, RunLeases.RENEW, NOW + ", ARRAY[1, 2]::bigint[], ARRAY[" + RUN + "], 'alice'");
            assertEquals(List.of(1), Plans.taskCounts(renewal), renewal);
            assertFalse(renewal.contains("Distributed Subplan"), renewal);
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    private static String[] statement(String sql, String args) {
        return new String[] { sql, args };
    }

    /** The node of the plan's top-level task (the least indented Task Count): the step that returns the result and sends the NOTIFY. */
    private static String lastStepNode(String plan) {
        String[] lines = plan.split("\n");
        int top = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].strip().startsWith("Task Count:") && (top < 0 || indent(lines[i]) <= indent(lines[top]))) {
                top = i;
            }
        }
        for (int j = top + 1; top >= 0 && j < lines.length; j++) {
            if (lines[j].strip().startsWith("Node:")) {
                return lines[j];
            }
        }
        return "";
    }

    private static int indent(String line) {
        return line.length() - line.stripLeading().length();
    }

    private static int coordinatorPort(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT nodeport FROM pg_dist_node WHERE groupid = 0")) {
            assertTrue(rs.next(), "no coordinator in pg_dist_node");
            return rs.getInt(1);
        }
    }
}
