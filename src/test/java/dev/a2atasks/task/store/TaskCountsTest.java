package dev.a2atasks.task.store;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The task counters of migration V9 (ListTasks' totalSize without counting rows): after more than
 * 10,000 creates, state and context changes and deletes from 8 concurrent writers over a few
 * scopes, and the service's own writers (SendMessage, the agent) at the same time, every counter
 * equals COUNT(*) of what it counts; counters damaged on purpose are found and rebuilt by
 * task_counts_recompute(); and ListTasks reports the counted totals.
 */
@QuarkusTest
class TaskCountsTest extends BindingTest {

    private static final String PREFIX = "TaskCountsTest-";
    private static final List<String> TENANTS = List.of(PREFIX + "a", PREFIX + "b", PREFIX + "c");
    private static final List<String> STATES = List.of("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED",
            "TASK_STATE_FAILED");

    /**
     * Counts (over every slot) that differ from COUNT(*) of the tasks, in this test's tenants. One
     * statement, so one snapshot: counters and tasks commit together, so no writer still at work
     * (the agent on the tasks SendMessage created) can make them differ.
     */
    private long wrongCounts() {
        return db.queryLong("""
                SELECT count(*) FROM task_counts_expected e
                FULL JOIN (SELECT tenant, owner, by_context, context_id, state, sum(n) AS n FROM task_counts
                           GROUP BY tenant, owner, by_context, context_id, state) c
                    USING (tenant, owner, by_context, context_id, state)
                WHERE (tenant LIKE 'TaskCountsTest-%') AND coalesce(e.n, 0) <> coalesce(c.n, 0)""");
    }

    @Test
    void tenThousandConcurrentWritesLeaveEveryCounterExact() throws Exception {
        for (String tenant : TENANTS) {
            db.clearTenant(tenant);
        }
        db.clearTenant(PREFIX + "api");
        int writers = 8;
        int perWriter = 1_300;
        AtomicInteger operations = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                write(writer, perWriter, operations);
                return null;
            }));
        }
        // The service's own writers at the same time: tasks created by SendMessage and moved by the agent.
        String bearer = Tokens.valid(PREFIX + "api", "caller");
        for (int c = 0; c < 2; c++) {
            int client = c;
            done.add(pool.submit(() -> {
                for (int i = 0; i < 60; i++) {
                    given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer).contentType("application/json")
                            .body("{\"message\":{\"messageId\":\"m-" + client + "-" + i + "\",\"role\":\"ROLE_USER\",\"contextId\":\"ctx-"
                                    + (i % 3) + "\",\"parts\":[{\"text\":\"hello" + (i % 4 == 0 ? " input" : "") + "\"}]}}")
                            .post("/message:send").then().statusCode(200);
                    operations.incrementAndGet();
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertTrue(operations.get() >= 10_000, operations + " operations");

        long keys = db.queryLong("SELECT count(*) FROM task_counts_expected WHERE tenant LIKE 'TaskCountsTest-%'");
        assertTrue(keys > 50, keys + " counts compared");
        assertEquals(0, wrongCounts(), "every counter equals COUNT(*)");

        // ListTasks reports the counted totals, for each filter shape without statusTimestampAfter.
        String reader = Tokens.valid(TENANTS.get(0), "o1");
        for (Map<String, String> filter : List.of(Map.<String, String>of(), Map.of("status", "TASK_STATE_WORKING"),
                Map.of("contextId", "ctx-2"), Map.of("contextId", "ctx-2", "status", "TASK_STATE_FAILED"))) {
            String where = "tenant = '" + TENANTS.get(0) + "' AND owner = 'o1'"
                    + (filter.containsKey("status") ? " AND state = '" + filter.get("status") + "'" : "")
                    + (filter.containsKey("contextId") ? " AND context_id = '" + filter.get("contextId") + "'" : "");
            Map<String, String> request = new java.util.HashMap<>(filter);
            request.put("pageSize", "1");
            assertEquals(db.queryLong("SELECT count(*) FROM tasks WHERE " + where),
                    (long) api("GRPC").list(reader, request).getTotalSize(), filter.toString());
        }

        // Damaged on purpose, then rebuilt.
        db.execute("UPDATE task_counts SET n = n + 7 WHERE tenant = '" + TENANTS.get(1) + "' AND state <> ''");
        db.execute("DELETE FROM task_counts WHERE tenant = '" + TENANTS.get(2) + "' AND by_context");
        assertTrue(wrongCounts() > 0);
        assertTrue(db.queryLong("SELECT task_counts_recompute()") > 0, "the recompute says how many counts were wrong");
        assertEquals(0, wrongCounts(), "rebuilt from the tasks");
        assertEquals(0, db.queryLong("SELECT task_counts_recompute()"), "nothing left to repair");
    }

    /** One writer: creates, state changes, context changes and deletes of its own tasks, over every scope. */
    private void write(int writer, int count, AtomicInteger operations) throws SQLException {
        Random random = new Random(writer);
        List<String[]> mine = new ArrayList<>(); // tenant, owner, id
        // A connection of its own per writer (the service's JDBC pool is Flyway's, two connections).
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        try (Connection c = java.sql.DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getOptionalValue("quarkus.datasource.username", String.class).orElse("postgres"),
                config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
                PreparedStatement insert = c.prepareStatement("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts)"
                        + " VALUES (?, ?, ?, ?, ?, now())");
                PreparedStatement state = c.prepareStatement("UPDATE tasks SET state = ? WHERE tenant = ? AND owner = ? AND id = ?");
                PreparedStatement context = c.prepareStatement("UPDATE tasks SET context_id = ? WHERE tenant = ? AND owner = ? AND id = ?");
                PreparedStatement delete = c.prepareStatement("DELETE FROM tasks WHERE tenant = ? AND owner = ? AND id = ?")) {
            for (int i = 0; i < count; i++) {
                int roll = random.nextInt(100);
                if (mine.isEmpty() || roll < 45) {
                    String[] task = { TENANTS.get(random.nextInt(TENANTS.size())), "o" + (1 + random.nextInt(2)), "w" + writer + "-" + i };
                    insert.setString(1, task[0]);
                    insert.setString(2, task[1]);
                    insert.setString(3, task[2]);
                    insert.setString(4, "ctx-" + random.nextInt(4));
                    insert.setString(5, STATES.get(random.nextInt(STATES.size())));
                    insert.executeUpdate();
                    mine.add(task);
                } else {
                    String[] task = mine.get(random.nextInt(mine.size()));
                    PreparedStatement change = roll < 75 ? state : roll < 85 ? context : delete;
                    int p = 1;
                    if (change == state) {
                        change.setString(p++, STATES.get(random.nextInt(STATES.size())));
                    } else if (change == context) {
                        change.setString(p++, "ctx-" + random.nextInt(4));
                    } else {
                        mine.remove(task);
                    }
                    change.setString(p++, task[0]);
                    change.setString(p++, task[1]);
                    change.setString(p, task[2]);
                    change.executeUpdate();
                }
                operations.incrementAndGet();
            }
        }
    }

}
