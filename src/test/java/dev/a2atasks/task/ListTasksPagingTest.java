package dev.a2atasks.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;

import dev.a2atasks.task.store.TaskStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/** Keyset paging through real gRPC and real HTTP against PostgreSQL. */
@QuarkusTest
class ListTasksPagingTest extends BindingTest {

    private static final Instant BASE = Instant.parse("2026-10-02T09:00:00Z");

    @Inject
    TaskStore store;

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void seedExampleTenTasksInPagesOfFour(String binding) throws Throwable {
        TaskApi api = api(binding);
        String tenant = freshTenant("seed", api);
        for (int i = 0; i < 10; i++) {
            db.insertTask(tenant, "alice", String.format("t%02d", i), "ctx-7", "TASK_STATE_WORKING", BASE.plusSeconds(i));
        }
        String bearer = Tokens.valid(tenant, "alice");

        assertEquals(List.of(List.of("t09", "t08", "t07", "t06"), List.of("t05", "t04", "t03", "t02"), List.of("t01", "t00")),
                walk(api, bearer, Map.of("pageSize", "4")));

        // The seed's phenomenon: t01 completes after page 1 is served, jumps ahead of the cursor,
        // and a plain walk never sees it. (The client's catch-up pass is what fixes this.)
        ListTasksResponse page1 = api.list(bearer, Map.of("pageSize", "4"));
        assertEquals(List.of("t09", "t08", "t07", "t06"), ids(page1));
        VertxContextSupport.subscribeAndAwait(() -> store.updateStatus(new Caller(tenant, "alice"), "t01",
                TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED).build()));
        List<String> seen = new ArrayList<>(ids(page1));
        String token = page1.getNextPageToken();
        while (!token.isEmpty()) {
            ListTasksResponse page = api.list(bearer, Map.of("pageSize", "4", "pageToken", token));
            seen.addAll(ids(page));
            token = page.getNextPageToken();
        }
        assertEquals(9, seen.size(), seen.toString());
        assertFalse(seen.contains("t01"), "t01 moved behind the cursor");
        assertEquals("t01", ids(api.list(bearer, Map.of("pageSize", "1"))).get(0), "t01 is now the newest task");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void tiedTimestampsAreWalkedExactlyOnceInIdOrder(String binding) {
        TaskApi api = api(binding);
        String tenant = freshTenant("ties", api);
        Instant same = BASE.plusMillis(123).plusNanos(456_000);
        List<String> ids = IntStream.range(0, 250).mapToObj(i -> "task-" + Integer.toString(i * 7919 % 1000, 36) + "-" + i).toList();
        ids.forEach(id -> db.insertTask(tenant, "bob", id, "", "TASK_STATE_SUBMITTED", same));

        List<List<String>> pages = walk(api, Tokens.valid(tenant, "bob"), Map.of("pageSize", "7"));

        assertEquals(36, pages.size());
        pages.subList(0, 35).forEach(page -> assertEquals(7, page.size()));
        List<String> walked = pages.stream().flatMap(List::stream).toList();
        List<String> expected = ids.stream().sorted(Comparator.reverseOrder()).toList(); // byte order = String order for ASCII
        assertEquals(expected, walked);
        assertEquals(250, new HashSet<>(walked).size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void totalSizeIsCountedOnceAndCarriedThroughTheWalk(String binding) {
        TaskApi api = api(binding);
        String tenant = freshTenant("total", api);
        for (int i = 0; i < 30; i++) {
            db.insertTask(tenant, "carol", "task-" + i, "", "TASK_STATE_WORKING", BASE.plusSeconds(i));
        }
        String bearer = Tokens.valid(tenant, "carol");
        db.resetStatementStatistics();

        List<Integer> totals = new ArrayList<>();
        String token = "";
        int page = 0;
        do {
            Map<String, String> params = new HashMap<>(Map.of("pageSize", "5"));
            if (!token.isEmpty()) {
                params.put("pageToken", token);
            }
            ListTasksResponse response = api.list(bearer, params);
            totals.add(response.getTotalSize());
            assertEquals(5, response.getPageSize());
            token = response.getNextPageToken();
            // New tasks arrive mid-walk, newer than anything (ahead of the cursor).
            db.insertTask(tenant, "carol", "late-" + page++, "", "TASK_STATE_SUBMITTED", Instant.now());
        } while (!token.isEmpty());

        assertEquals(6, totals.size());
        assertTrue(totals.stream().allMatch(t -> t == 30), totals.toString());
        assertEquals(1, db.totalSizeStatements(), "only the first page takes the total");
        assertEquals(6, db.statementCalls("SELECT pk, id, context_id%FROM tasks%"), "one page query per page");
        // The next walk counts again, and sees the tasks that arrived.
        assertEquals(36, api.list(bearer, Map.of("pageSize", "5")).getTotalSize());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void eachCallerSeesExactlyItsOwnTasks(String binding) {
        TaskApi api = api(binding);
        String[] tenants = { freshTenant("scope-a", api), freshTenant("scope-b", api) };
        String[] subjects = { "dave", "erin" };
        Map<String, Set<String>> expected = new HashMap<>();
        for (int i = 0; i < 40; i++) { // interleaved: neighbours in time belong to different callers
            String tenant = tenants[i % 2];
            String subject = subjects[(i / 2) % 2];
            String id = "shared-id-" + (i / 4); // the same ids recur under different callers
            db.insertTask(tenant, subject, id, "ctx", "TASK_STATE_WORKING", BASE.plusMillis(i));
            expected.computeIfAbsent(tenant + "/" + subject, k -> new HashSet<>()).add(id);
        }
        db.insertTask(tenants[0], "erin", "erin-only", "ctx", "TASK_STATE_WORKING", BASE);
        expected.get(tenants[0] + "/erin").add("erin-only");
        for (String tenant : tenants) {
            for (String subject : subjects) {
                String bearer = Tokens.valid(tenant, subject);
                List<String> seen = walk(api, bearer, Map.of("pageSize", "3")).stream().flatMap(List::stream).toList();
                assertEquals(expected.get(tenant + "/" + subject), new HashSet<>(seen), tenant + "/" + subject);
                assertEquals(seen.size(), new HashSet<>(seen).size());
                int own = expected.get(tenant + "/" + subject).size();
                assertEquals(own, api.list(bearer, Map.of()).getTotalSize());
                assertEquals(own, api.list(bearer, Map.of("tenant", tenant)).getTotalSize(), "own tenant in the path");
                ListTasksResponse foreign = api.list(bearer, Map.of("tenant", tenants[0].equals(tenant) ? tenants[1] : tenants[0]));
                assertEquals(0, foreign.getTasksCount(), "another tenant's path shows nothing");
                assertEquals(0, foreign.getTotalSize());
                assertEquals("", foreign.getNextPageToken());
            }
        }
        // GetTask: a task of another caller is indistinguishable from a missing one.
        String bearer = Tokens.valid(tenants[0], "dave");
        assertEquals("shared-id-0", api.get(bearer, null, "shared-id-0", "0").getId());
        assertEquals("erin-only", api.get(Tokens.valid(tenants[0], "erin"), null, "erin-only", "0").getId());
        ApiException othersTask = assertThrows(ApiException.class, () -> api.get(bearer, null, "erin-only", "0"));
        ApiException missing = assertThrows(ApiException.class, () -> api.get(bearer, null, "no-such-task", "0"));
        ApiException foreignPath = assertThrows(ApiException.class, () -> api.get(bearer, tenants[1], "erin-only", "0"));
        for (ApiException e : List.of(othersTask, missing, foreignPath)) {
            assertEquals("NOT_FOUND", e.error().status());
            assertEquals("TASK_NOT_FOUND", e.error().reason());
        }
        assertEquals(othersTask.error(), foreignPath.error());
        assertEquals(othersTask.error().message().replace("erin-only", "X"), missing.error().message().replace("no-such-task", "X"));
    }
}
