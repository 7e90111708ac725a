package dev.a2atasks.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.a2atasks.client.GrpcTaskListing;
import dev.a2atasks.client.ListFilter;
import dev.a2atasks.client.TaskListing;
import dev.a2atasks.client.TaskWalker;
import dev.a2atasks.client.WalkResult;
import dev.a2atasks.paging.TimeSource;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Prometheus;
import dev.a2atasks.support.Prometheus.Delta;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The operator's numbers at {@code /q/metrics}: a scripted walk (a bad token, an expired token, a
 * restart, a catch-up pass, GetTask history) moves each counter by exactly what it did, and the
 * client library's walk stats reach the same registry.
 */
@QuarkusTest
class MetricsTest extends BindingTest {

    @AfterEach
    void realTime() {
        QuarkusMock.installMockForType(new TimeSource(), TimeSource.class);
    }

    @Test
    void aScriptedWalkMovesEachCounterByExactlyWhatItDid() {
        TaskApi rest = api("HTTP+JSON");
        String tenant = freshTenant("script", rest);
        String bearer = Tokens.valid(tenant, "metered");
        Instant ts = Instant.parse("2026-03-01T00:00:00Z");
        long withHistory = 0;
        for (int i = 0; i < 25; i++) {
            long pk = db.insertTask(tenant, "metered", String.format("m%02d", i), "c", "TASK_STATE_COMPLETED", ts.plusSeconds(i));
            if (i == 0) {
                withHistory = pk;
            }
        }
        db.insertMessages(withHistory, 8);
        Map<String, Double> before = Prometheus.scrape();

        // A walk: two pages of ten, then a token that was tampered with, then one that expired.
        ListTasksResponse first = rest.list(bearer, Map.of("pageSize", "10"));
        ListTasksResponse second = rest.list(bearer, Map.of("pageSize", "10", "pageToken", first.getNextPageToken()));
        String token = second.getNextPageToken();
        String tampered = token.substring(0, 20) + (token.charAt(20) == 'A' ? 'B' : 'A') + token.substring(21);
        assertRefused(rest, bearer, tampered, "pageToken signature is invalid");
        QuarkusMock.installMockForType(new TimeSource() {
            @Override
            public Instant now() {
                return Instant.now().plusSeconds(601);
            }
        }, TimeSource.class);
        assertRefused(rest, bearer, token, "pageToken expired; restart the listing without pageToken");
        realTime();

        // The client restarts the walk: three pages, 25 tasks; then a catch-up pass over the newest 3.
        int rows = 0;
        String next = "";
        int pages = 0;
        do {
            Map<String, String> params = new HashMap<>(Map.of("pageSize", "10"));
            if (!next.isEmpty()) {
                params.put("pageToken", next);
            }
            ListTasksResponse page = rest.list(bearer, params);
            rows += page.getTasksCount();
            next = page.getNextPageToken();
            pages++;
        } while (!next.isEmpty());
        assertEquals(3, pages);
        assertEquals(25, rows);
        ListTasksResponse catchUp = rest.list(bearer, Map.of("pageSize", "10", "statusTimestampAfter", ts.plusSeconds(22).toString()));
        assertEquals(3, catchUp.getTasksCount());
        assertTrue(catchUp.getNextPageToken().isEmpty());

        // A call with an expired credential never reaches an operation: counted at admission.
        io.restassured.RestAssured.given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + Tokens.expired("metered"))
                .get("/tasks").then().statusCode(401);

        // GetTask: 5 of the 8 messages over HTTP+JSON, 2 over gRPC.
        assertEquals(5, rest.get(bearer, tenant, "m00", "5").getHistoryCount());
        assertEquals(2, api("GRPC").get(bearer, tenant, "m00", "2").getHistoryCount());

        Map<String, Double> after = Prometheus.scrape();
        Delta delta = new Delta(before, after);
        delta.is(3, "a2a_list_walks_started_total"); // the walk, its restart, the catch-up pass
        delta.is(6, "a2a_list_pages_total");
        delta.is(20 + 25 + 3, "a2a_list_rows_total");
        delta.is(1, "a2a_list_catch_up_requests_total");
        // The two walks' first pages read their total with the page (the counters); the catch-up pass is one page: no count at all.
        delta.is(0, "a2a_list_total_size_seconds_count");
        delta.is(1, "a2a_page_token_refusals_total", "reason", "signature");
        delta.is(1, "a2a_page_token_refusals_total", "reason", "expired");
        delta.is(0, "a2a_page_token_refusals_total", "reason", "malformed");
        delta.is(0, "a2a_page_token_refusals_total", "reason", "unknown_key");
        delta.is(0, "a2a_page_token_refusals_total", "reason", "other_walk");
        delta.is(7, "a2a_get_task_history_rows_total");
        delta.is(6, "a2a_requests_seconds_count", "binding", "HTTP+JSON", "operation", "ListTasks", "outcome", "ok");
        delta.is(2, "a2a_requests_seconds_count", "binding", "HTTP+JSON", "operation", "ListTasks", "outcome", "invalid_params");
        delta.is(1, "a2a_requests_seconds_count", "binding", "HTTP+JSON", "operation", "GetTask", "outcome", "ok");
        delta.is(1, "a2a_requests_seconds_count", "binding", "GRPC", "operation", "GetTask", "outcome", "ok");
        delta.is(1, "a2a_admission_refusals_total", "binding", "HTTP+JSON", "outcome", "unauthenticated");
        for (String requestClass : List.of("walk-start", "page", "get", "write", "other")) {
            delta.is(0, "a2a_rate_limit_refusals_total", "class", requestClass);
        }
        assertTrue(after.keySet().stream().noneMatch(k -> k.contains(tenant) || k.contains("metered") || k.contains("m00")),
                "no tenant, caller or task id in any label");
    }

    @Test
    void theClientLibraryReportsItsWalkStatsToTheRegistry() throws Exception {
        TaskApi grpc = api("GRPC");
        String tenant = freshTenant("client", grpc);
        Instant ts = Instant.parse("2026-03-02T00:00:00Z");
        for (int i = 0; i < 25; i++) {
            db.insertTask(tenant, "walker", "w" + i, "c", "TASK_STATE_WORKING", ts.plusSeconds(i));
        }
        Map<String, Double> before = Prometheus.scrape();
        WalkResult result;
        try (TaskListing listing = new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true,
                () -> Tokens.valid(tenant, "walker"), Duration.ofSeconds(30))) {
            result = new TaskWalker(listing, Duration.ofSeconds(2), 3, (pass, number, page) -> {
            }).listAll(ListFilter.all().withPageSize(10));
        }
        assertEquals(25, result.tasks().size());
        Delta delta = new Delta(before, Prometheus.scrape());
        delta.is(1, "a2a_client_walks_total");
        delta.is(result.stats().pages(), "a2a_client_walk_pages_total");
        delta.is(result.stats().rows(), "a2a_client_walk_rows_total");
        delta.is(result.stats().catchUpRows(), "a2a_client_walk_catch_up_rows_total");
        delta.is(result.stats().catchUpRounds(), "a2a_client_walk_catch_up_rounds_total");
        delta.is(0, "a2a_client_walk_token_errors_total");
        delta.is(1, "a2a_client_walk_duration_seconds_count");
        assertTrue(result.stats().catchUpRounds() >= 1);
        // The server saw the same walk: its rows are the client's rows plus its catch-up rows.
        delta.is(result.stats().rows() + result.stats().catchUpRows(), "a2a_list_rows_total");
    }

    private static void assertRefused(TaskApi api, String bearer, String token, String message) {
        try {
            api.list(bearer, Map.of("pageSize", "10", "pageToken", token));
            throw new AssertionError("accepted: " + token);
        } catch (ApiException e) {
            assertEquals(message, e.error().message());
        }
    }
}
