package dev.a2atasks.push;

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
 * On Citus the delivery workers claim, lease and delete outbox rows one owner at a time: each of
 * those statements is a router query to the node holding the owner's rows (a lock across nodes is
 * refused; a change across them would lock every shard). Only the search for owners with due rows
 * spans the nodes, and it takes no lock. An event's outbox rows, written on the request path, are
 * an INSERT ... SELECT pushed down to the owner's node as one task.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusOutboxPlanTest {

    private static final String KEYS = "'{t}', '{alice}', '{task-1}', '{c1}', '{3}'";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyStatementThatLocksOrChangesRowsGoesToTheOwnersNode() throws SQLException {
        Map<String, String[]> ofOwner = new LinkedHashMap<>();
        ofOwner.put("HEADS_OF_OWNER", new String[] { OutboxStatements.HEADS_OF_OWNER, "now(), '{}', '{}', 64, 'alice'" });
        ofOwner.put("FOLLOWERS_OF_OWNER", new String[] { OutboxStatements.FOLLOWERS_OF_OWNER, KEYS + ", now(), 15, 'alice'" });
        ofOwner.put("LEASE_OF_OWNER", new String[] { OutboxStatements.LEASE_OF_OWNER, "'worker', now(), " + KEYS + ", 'alice'" });
        ofOwner.put("DELIVERED_OF_OWNER", new String[] { OutboxStatements.DELIVERED_OF_OWNER, "'worker', " + KEYS + ", 'alice'" });
        // An event's outbox rows (PushStore.OWED_ROWS, the request path): an INSERT ... SELECT within the owner's node.
        ofOwner.put("OWED_ROWS", new String[] { PushStore.OWED_ROWS, "'t', 'alice', 'task-1', 3, now()" });
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            for (Map.Entry<String, String[]> statement : ofOwner.entrySet()) {
                String plan = Plans.explain(s, statement.getValue()[0], statement.getValue()[1]);
                assertEquals(List.of(1), Plans.taskCounts(plan), statement.getKey() + ":\n" + plan);
                assertFalse(plan.contains("Distributed Subplan"), statement.getKey() + ":\n" + plan);
            }
            String dueOwners = Plans.explain(s, OutboxStatements.DUE_OWNERS, "now(), '{}', 64");
            assertTrue(Plans.taskCounts(dueOwners).stream().allMatch(n -> n > 1), "the search spans every shard:\n" + dueOwners);
            assertFalse(dueOwners.contains("LockRows"), dueOwners);
        }
    }
}
