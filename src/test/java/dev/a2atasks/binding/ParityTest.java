package dev.a2atasks.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.support.ApiError;
import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.RestTaskApi;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * One table of ListTasks/GetTask cases (successes, bad input, TaskNotFound, token abuse) run
 * through gRPC, HTTP+JSON and JSON-RPC: each case must give the same tasks in the same order,
 * the same totalSize, or the same error class, message and fields, on every binding.
 */
@QuarkusTest
class ParityTest extends BindingTest {

    private static final String TENANT = "ParityTest";
    private static final String OTHER_TENANT = "ParityTest-other";
    private static final Instant BASE = Instant.parse("2026-07-01T12:00:00Z");
    private static final String STATES = "status must be one of TASK_STATE_SUBMITTED, TASK_STATE_WORKING, TASK_STATE_COMPLETED,"
            + " TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_INPUT_REQUIRED, TASK_STATE_REJECTED, TASK_STATE_AUTH_REQUIRED";
    private static final String OTHER_WALK = "pageToken was issued for a different caller or filter set";
    private static final String LONG = "x".repeat(10 * 1024);

    private static final TaskApi REST = new RestTaskApi();
    private static final String ALICE = Tokens.valid(TENANT, "alice");
    private static final String BOB = Tokens.valid(TENANT, "bob");
    private static int runs;

    /** A normalized outcome: what must be equal across bindings. */
    record Outcome(List<String> ids, int totalSize, boolean more, Map<String, List<String>> history,
            Map<String, Integer> artifacts, ApiError error) {
    }

    @BeforeAll
    void data() {
        db.clearTenant(TENANT);
        db.clearTenant(OTHER_TENANT);
        String[] states = { "TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED" };
        for (int i = 0; i < 12; i++) {
            long pk = db.insertTask(TENANT, "alice", String.format("p%02d", i), "ctx-" + (i % 2), states[i % 3], BASE.plusSeconds(i));
            db.insertMessages(pk, i % 4);
            if (i % 3 == 0) {
                db.insertArtifact(pk, "report", 0);
            }
        }
        db.insertTask(TENANT, "bob", "bobs", "ctx-0", "TASK_STATE_WORKING", BASE);
        db.insertTask(OTHER_TENANT, "alice", "elsewhere", "ctx-0", "TASK_STATE_WORKING", BASE);
    }

    @AfterAll
    void report() {
        System.out.printf("Parity suite: %d cases x 3 bindings = %d binding runs%n", cases().count(), runs);
    }

    static Stream<Arguments> cases() {
        Map<String, Function<TaskApi, Outcome>> table = new LinkedHashMap<>();
        // --- successes
        table.put("list: defaults", api -> list(api, ALICE, Map.of()));
        table.put("list: pageSize 5", api -> list(api, ALICE, Map.of("pageSize", "5")));
        table.put("list: second page", api -> list(api, ALICE, Map.of("pageSize", "5", "pageToken", token(ALICE, Map.of("pageSize", "5")))));
        table.put("list: contextId", api -> list(api, ALICE, Map.of("contextId", "ctx-1")));
        table.put("list: status", api -> list(api, ALICE, Map.of("status", "TASK_STATE_COMPLETED")));
        table.put("list: status and context, paged", api -> list(api, ALICE,
                Map.of("status", "TASK_STATE_WORKING", "contextId", "ctx-0", "pageSize", "1")));
        table.put("list: statusTimestampAfter (inclusive)", api -> list(api, ALICE,
                Map.of("statusTimestampAfter", BASE.plusSeconds(9).toString())));
        table.put("list: history and artifacts", api -> list(api, ALICE,
                Map.of("historyLength", "2", "includeArtifacts", "true", "pageSize", "7")));
        table.put("list: historyLength 0", api -> list(api, ALICE, Map.of("historyLength", "0")));
        table.put("list: own tenant in path", api -> list(api, ALICE, Map.of("tenant", TENANT)));
        table.put("list: another tenant in path", api -> list(api, ALICE, Map.of("tenant", OTHER_TENANT)));
        table.put("list: another subject", api -> list(api, BOB, Map.of()));
        table.put("list: unknown parameter ignored", api -> list(api, ALICE, Map.of("colour", "blue", "pageSize", "2")));
        table.put("get: history unset", api -> get(api, ALICE, null, "p07", null));
        table.put("get: historyLength 2", api -> get(api, ALICE, null, "p07", "2"));
        table.put("get: historyLength 0", api -> get(api, ALICE, null, "p07", "0"));
        table.put("get: own tenant in path", api -> get(api, ALICE, TENANT, "p03", "1"));
        // --- TaskNotFound
        table.put("get: missing task", api -> get(api, ALICE, null, "no-such-task", null));
        table.put("get: another subject's task", api -> get(api, ALICE, null, "bobs", null));
        table.put("get: another tenant in path", api -> get(api, ALICE, OTHER_TENANT, "p03", null));
        // --- bad input
        table.put("bad: pageSize 0", api -> list(api, ALICE, Map.of("pageSize", "0")));
        table.put("bad: pageSize 101", api -> list(api, ALICE, Map.of("pageSize", "101")));
        table.put("bad: pageSize -1", api -> list(api, ALICE, Map.of("pageSize", "-1")));
        table.put("bad: pageSize abc", api -> list(api, ALICE, Map.of("pageSize", "abc")));
        table.put("bad: historyLength -5", api -> list(api, ALICE, Map.of("historyLength", "-5")));
        table.put("bad: historyLength x", api -> list(api, ALICE, Map.of("historyLength", "x")));
        table.put("bad: status TASK_STATE_RUNNING", api -> list(api, ALICE, Map.of("status", "TASK_STATE_RUNNING")));
        table.put("bad: statusTimestampAfter yesterday", api -> list(api, ALICE, Map.of("statusTimestampAfter", "yesterday")));
        table.put("bad: includeArtifacts maybe", api -> list(api, ALICE, Map.of("includeArtifacts", "maybe")));
        table.put("bad: contextId 10 KB", api -> list(api, ALICE, Map.of("contextId", LONG)));
        table.put("bad: get id 10 KB", api -> get(api, ALICE, null, LONG, null));
        table.put("bad: get historyLength -1", api -> get(api, ALICE, null, "p01", "-1"));
        table.put("bad: several fields", api -> list(api, ALICE, Map.of("pageSize", "0", "historyLength", "-1", "status", "NOPE")));
        // --- token abuse (tokens issued over HTTP+JSON, replayed on each binding)
        table.put("token: pageToken %%%", api -> list(api, ALICE, Map.of("pageToken", "%%%")));
        table.put("token: 10 KB", api -> list(api, ALICE, Map.of("pageToken", LONG)));
        table.put("token: other subject", api -> list(api, BOB, Map.of("pageSize", "5", "pageToken", token(ALICE, Map.of("pageSize", "5")))));
        table.put("token: other tenant", api -> list(api, Tokens.valid(OTHER_TENANT, "alice"),
                Map.of("pageSize", "5", "pageToken", token(ALICE, Map.of("pageSize", "5")))));
        table.put("token: changed status filter", api -> list(api, ALICE, Map.of("status", "TASK_STATE_FAILED", "pageSize", "2",
                "pageToken", token(ALICE, Map.of("status", "TASK_STATE_WORKING", "pageSize", "2")))));
        table.put("token: one bit flipped", api -> list(api, ALICE, Map.of("pageSize", "5", "pageToken",
                flipped(token(ALICE, Map.of("pageSize", "5"))))));
        table.put("token: truncated", api -> {
            String token = token(ALICE, Map.of("pageSize", "5"));
            return list(api, ALICE, Map.of("pageSize", "5", "pageToken", token.substring(0, token.length() - 8)));
        });
        return table.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void sameOutcomeOnEveryBinding(String name, Function<TaskApi, Outcome> call) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (String binding : bindings().toList()) {
            Outcome outcome = call.apply(api(binding));
            if (outcome != null) {
                outcomes.put(binding, outcome);
                runs++;
            }
        }
        assertTrue(outcomes.size() >= 2, name + " ran on fewer than two bindings");
        Outcome reference = outcomes.get("HTTP+JSON");
        outcomes.forEach((binding, outcome) -> assertEquals(reference, outcome, name + " on " + binding + " vs HTTP+JSON"));
        // Sanity of the reference itself: a success returned tasks or a real error came back.
        assertTrue(reference.error() != null || reference.ids() != null, name);
        if (name.startsWith("bad:") || name.startsWith("token:")) {
            assertEquals("INVALID_ARGUMENT", reference.error().status(), name);
            assertFalse(reference.error().fields().isEmpty(), name);
        }
        if (name.contains("missing task") || name.contains("another subject's task") || name.startsWith("get: another tenant")) {
            assertEquals("NOT_FOUND", reference.error().status(), name);
            assertEquals("TASK_NOT_FOUND", reference.error().reason(), name);
        }
    }

    @Test
    void expectedValuesOfSomeCases() {
        TaskApi api = api("GRPC");
        assertEquals(List.of("p11", "p10", "p09", "p08", "p07"), list(api, ALICE, Map.of("pageSize", "5")).ids());
        assertEquals(List.of("p11", "p09", "p07", "p05", "p03", "p01"), list(api, ALICE, Map.of("contextId", "ctx-1")).ids());
        assertEquals(List.of("p11", "p10", "p09"), list(api, ALICE, Map.of("statusTimestampAfter", BASE.plusSeconds(9).toString())).ids());
        assertEquals(12, list(api, ALICE, Map.of("pageSize", "5")).totalSize());
        assertEquals(List.of("m1", "m2"), get(api, ALICE, null, "p07", "2").history().get("p07"));
        assertEquals(STATES, list(api, ALICE, Map.of("status", "TASK_STATE_RUNNING")).error().message());
        assertEquals(OTHER_WALK, list(api, BOB, Map.of("pageSize", "5", "pageToken", token(ALICE, Map.of("pageSize", "5"))))
                .error().message());
    }

    @Test
    void aTokenFromOneBindingContinuesOnTheOthers() {
        List<String> bindings = bindings().toList();
        List<String> walked = new ArrayList<>();
        String token = "";
        int page = 0;
        do {
            TaskApi api = api(bindings.get(page++ % bindings.size()));
            Map<String, String> params = new HashMap<>(Map.of("pageSize", "2", "historyLength", "1"));
            if (!token.isEmpty()) {
                params.put("pageToken", token);
            }
            ListTasksResponse response = api.list(ALICE, params);
            walked.addAll(ids(response));
            assertEquals(12, response.getTotalSize());
            token = response.getNextPageToken();
        } while (!token.isEmpty());
        assertEquals(6, page);
        assertEquals(List.of("p11", "p10", "p09", "p08", "p07", "p06", "p05", "p04", "p03", "p02", "p01", "p00"), walked);
    }

    private static Outcome list(TaskApi api, String bearer, Map<String, String> params) {
        if (!api.canExpress(params)) {
            return null; // e.g. pageSize "abc" has no gRPC form; that binding sits this case out
        }
        try {
            ListTasksResponse r = api.list(bearer, params);
            Map<String, List<String>> history = new LinkedHashMap<>();
            Map<String, Integer> artifacts = new LinkedHashMap<>();
            for (Task t : r.getTasksList()) {
                history.put(t.getId(), t.getHistoryList().stream().map(Message::getMessageId).toList());
                artifacts.put(t.getId(), t.getArtifactsCount());
            }
            return new Outcome(ids(r), r.getTotalSize(), !r.getNextPageToken().isEmpty(), history, artifacts, null);
        } catch (ApiException e) {
            return new Outcome(null, 0, false, null, null, e.error());
        }
    }

    private static Outcome get(TaskApi api, String bearer, String tenant, String id, String historyLength) {
        try {
            Task t = api.get(bearer, tenant, id, historyLength);
            return new Outcome(List.of(t.getId()), 0, false,
                    Map.of(t.getId(), t.getHistoryList().stream().map(Message::getMessageId).toList()),
                    Map.of(t.getId(), t.getArtifactsCount()), null);
        } catch (ApiException e) {
            return new Outcome(null, 0, false, null, null, e.error());
        }
    }

    /** A first-page token, issued over HTTP+JSON. */
    private static String token(String bearer, Map<String, String> params) {
        return REST.list(bearer, params).getNextPageToken();
    }

    private static String flipped(String token) {
        byte[] raw = Base64.getUrlDecoder().decode(token);
        raw[raw.length - 20] ^= 0x01;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

}
