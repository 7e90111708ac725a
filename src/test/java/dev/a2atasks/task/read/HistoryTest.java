package dev.a2atasks.task.read;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/** historyLength and includeArtifacts, trimmed in SQL, for a task and for whole pages. */
@QuarkusTest
class HistoryTest extends BindingTest {

    private static final Instant BASE = Instant.parse("2026-06-01T00:00:00Z");

    private static List<String> messageIds(Task task) {
        return task.getHistoryList().stream().map(Message::getMessageId).toList();
    }

    private static List<String> range(int from, int toExclusive) {
        return IntStream.range(from, toExclusive).mapToObj(i -> "m" + i).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void historyLengthOnATaskWithFiftyMessages(String binding) {
        TaskApi api = api(binding);
        String tenant = freshTenant("fifty", api);
        long pk = db.insertTask(tenant, "alice", "h50", "ctx", "TASK_STATE_INPUT_REQUIRED", BASE);
        db.insertMessages(pk, 50);
        db.insertArtifact(pk, "a1", 0);
        String bearer = Tokens.valid(tenant, "alice");

        // GetTask: unset means the configured default (20), 0 none, N the N most recent, oldest first.
        assertEquals(List.of(), messageIds(api.get(bearer, null, "h50", "0")));
        assertEquals(List.of("m48", "m49"), messageIds(api.get(bearer, null, "h50", "2")));
        assertEquals(range(30, 50), messageIds(api.get(bearer, null, "h50", null)));
        assertEquals(range(0, 50), messageIds(api.get(bearer, null, "h50", "1000")), "capped at 100, so all 50");
        Task task = api.get(bearer, null, "h50", "2");
        assertEquals(1, task.getArtifactsCount(), "GetTask always carries artifacts");
        assertEquals("h50", task.getHistory(0).getTaskId());
        assertEquals("ctx", task.getHistory(0).getContextId());
        assertEquals("message 48", task.getHistory(0).getParts(0).getText());
        assertEquals(dev.a2atasks.proto.v1.Role.ROLE_USER, task.getHistory(0).getRole());

        // ListTasks: unset means the list default (0).
        assertEquals(List.of(), messageIds(api.list(bearer, Map.of()).getTasks(0)));
        assertEquals(List.of(), messageIds(api.list(bearer, Map.of("historyLength", "0")).getTasks(0)));
        assertEquals(List.of("m48", "m49"), messageIds(api.list(bearer, Map.of("historyLength", "2")).getTasks(0)));
        assertEquals(0, api.list(bearer, Map.of()).getTasks(0).getArtifactsCount());
        assertEquals(1, api.list(bearer, Map.of("includeArtifacts", "true")).getTasks(0).getArtifactsCount());
    }

    @Test
    void jsonLeavesOutHistoryAndArtifactsUnlessAsked() {
        String tenant = freshTenant("absent", api("HTTP+JSON"));
        long pk = db.insertTask(tenant, "alice", "t1", "", "TASK_STATE_WORKING", BASE);
        db.insertMessages(pk, 3);
        String bearer = "Bearer " + Tokens.valid(tenant, "alice");

        given().header("A2A-Version", "1.0").header("Authorization", bearer).get("/tasks").then().statusCode(200)
                .contentType("application/a2a+json")
                .body("tasks[0]", not(hasKey("artifacts")))
                .body("tasks[0]", not(hasKey("history")))
                .body("tasks[0]", not(hasKey("contextId")))
                .body("nextPageToken", org.hamcrest.Matchers.equalTo(""))
                .body("pageSize", org.hamcrest.Matchers.equalTo(50))
                .body("totalSize", org.hamcrest.Matchers.equalTo(1))
                .body("tasks[0].status.state", org.hamcrest.Matchers.equalTo("TASK_STATE_WORKING"))
                .body("tasks[0].status.timestamp", org.hamcrest.Matchers.equalTo("2026-06-01T00:00:00.000Z"));
        given().header("A2A-Version", "1.0").header("Authorization", bearer).queryParam("includeArtifacts", "true").get("/tasks").then().statusCode(200)
                .body("tasks[0].artifacts", org.hamcrest.Matchers.empty());
        given().header("A2A-Version", "1.0").header("Authorization", bearer).queryParam("historyLength", "1").get("/tasks").then().statusCode(200)
                .body("tasks[0].history.messageId", org.hamcrest.Matchers.contains("m2"));
        given().header("A2A-Version", "1.0").header("Authorization", bearer).accept("application/json").get("/tasks/t1").then().statusCode(200)
                .contentType("application/json")
                .body("$", hasKey("history")) // GetTask's default is 20 messages
                .body("artifacts", org.hamcrest.Matchers.empty());
        given().header("A2A-Version", "1.0").header("Authorization", bearer).queryParam("historyLength", "0").get("/tasks/t1").then().statusCode(200)
                .body("$", not(hasKey("history")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void aLongHistoryCostsTheTailOnly(String binding) {
        TaskApi api = api(binding);
        String tenant = freshTenant("long", api);
        long pk = db.insertTask(tenant, "alice", "h20k", "ctx", "TASK_STATE_WORKING", BASE);
        db.insertMessages(pk, 20_000);
        db.execute("ANALYZE messages");
        String bearer = Tokens.valid(tenant, "alice");

        assertEquals(range(19_995, 20_000), messageIds(api.get(bearer, null, "h20k", "5")));

        // The statement the service ran, as PostgreSQL executes it: the messages index is read
        // backwards and stops after five rows.
        db.execute("DEALLOCATE ALL");
        String plan = db.queryText("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + HistoryTails.TAILS
                .replace("$1::bigint[]", "ARRAY[" + pk + "]::bigint[]").replace("$2", "5").replace("$3", "'alice'"));
        Matcher scan = Pattern.compile("Index Scan Backward using messages_pkey on messages m \\(actual rows=(\\d+)(\\.\\d+)? loops=1\\)")
                .matcher(plan);
        assertTrue(scan.find(), plan);
        assertEquals("5", scan.group(1), plan);
        assertTrue(!plan.contains("Rows Removed by Filter"), plan);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void aPageWithHistoryAndArtifactsRunsAConstantNumberOfStatements(String binding) {
        TaskApi api = api(binding);
        String tenant = freshTenant("constant", api);
        for (int i = 0; i < 150; i++) {
            long pk = db.insertTask(tenant, "alice", String.format("task-%03d", i), "ctx", "TASK_STATE_WORKING", BASE.plusSeconds(i));
            db.insertMessages(pk, 4);
            db.insertArtifact(pk, "out", 0);
        }
        String bearer = Tokens.valid(tenant, "alice");
        Map<String, String> params = new HashMap<>(Map.of("historyLength", "3", "includeArtifacts", "true"));

        for (String pageSize : List.of("100", "10", "1")) {
            params.put("pageSize", pageSize);
            db.resetStatementStatistics();
            ListTasksResponse first = api.list(bearer, params);
            assertEquals(Integer.parseInt(pageSize), first.getTasksCount());
            first.getTasksList().forEach(t -> {
                assertEquals(List.of("m1", "m2", "m3"), messageIds(t));
                assertEquals(1, t.getArtifactsCount());
            });
            // page (with the walk's total from the counters) + history tails + artifacts, whatever the page size
            assertEquals(3, db.readPathStatements(), "first page, pageSize " + pageSize);
            assertEquals(1, db.totalSizeStatements(), "the first page read the total, pageSize " + pageSize);

            Map<String, String> second = new HashMap<>(params);
            second.put("pageToken", first.getNextPageToken());
            db.resetStatementStatistics();
            api.list(bearer, second);
            assertEquals(3, db.readPathStatements(), "later page (no count), pageSize " + pageSize);
            assertEquals(0, db.totalSizeStatements(), "a later page reads no total, pageSize " + pageSize);
        }
    }
}
