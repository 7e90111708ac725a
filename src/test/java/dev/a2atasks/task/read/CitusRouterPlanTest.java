package dev.a2atasks.task.read;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
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
 * On a store distributed by owner (three-node Citus, {@link CitusProfile}), every hand-written
 * statement of the read path is planned as a router query: one task, on the one node that holds
 * the caller's rows, no subplan, no fan-out to every shard. Each is prepared exactly as the
 * service sends it and explained with the caller's values, as the coordinator plans it.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusRouterPlanTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyReadOfOneCallerGoesToOneNode() throws SQLException {
        Map<String, String> statements = new LinkedHashMap<>();
        for (int shape = 0; shape < 8; shape++) {
            String args = args(shape);
            statements.put("page, shape " + shape, TaskPageQueries.pageSql(shape, false) + "|" + args + ", 21");
            statements.put("next page, shape " + shape, TaskPageQueries.pageSql(shape, true) + "|" + args
                    + ", timestamptz '2026-01-01 00:00:00+00', 'task-9', 21");
            if (shape < 4) {
                statements.put("first page with its total, shape " + shape, TaskPageQueries.firstPageSql(shape) + "|" + args + ", 21");
            } else {
                statements.put("count, shape " + shape, TaskPageQueries.countSql(shape) + "|" + args);
            }
        }
        statements.put("history tails of a page", HistoryTails.TAILS + "|ARRAY[1, 2, 3]::bigint[], 5, 'alice'");
        statements.put("one task as GetTask answers it", TaskDocument.TASK + "|'t', 'alice', 'task-1', 20");
        statements.put("where a blocking send's task stands", TaskProgress.PROGRESS + "|'t', 'alice', 'task-1'");
        statements.put("a stream's next events", EventTails.EVENTS + "|'t', 'alice', 'task-1', 3, 64");
        statements.put("transcript, newest first", TranscriptPages.NEWEST_FIRST + "|'t', 'alice', 'task-1', 100, 20");
        statements.put("transcript, oldest first", TranscriptPages.OLDEST_FIRST + "|'t', 'alice', 'task-1', 0, 20");
        statements.put("transcript start at a message id", TranscriptPages.SEQ_OF_MESSAGE + "|'t', 'alice', 'task-1', 'm7'");

        List<String> fannedOut = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            for (Map.Entry<String, String> statement : statements.entrySet()) {
                String[] sqlAndArgs = statement.getValue().split("\\|", 2);
                String plan = Plans.explain(s, sqlAndArgs[0], sqlAndArgs[1]);
                if (!plan.contains("Task Count: 1\n") || plan.contains("Distributed Subplan")) {
                    fannedOut.add(statement.getKey() + ":\n" + plan);
                }
            }
        }
        assertTrue(fannedOut.isEmpty(), "not a single-node router plan:\n" + String.join("\n", fannedOut));
    }

    /** The scope and the filters a shape has: tenant, owner, [context], [state], [status time]. */
    private static String args(int shape) {
        StringBuilder args = new StringBuilder("'t', 'alice'");
        if ((shape & 1) != 0) {
            args.append(", 'ctx-1'");
        }
        if ((shape & 2) != 0) {
            args.append(", 'TASK_STATE_WORKING'");
        }
        if ((shape & 4) != 0) {
            args.append(", timestamptz '2025-12-01 00:00:00+00'");
        }
        return args.toString();
    }
}
