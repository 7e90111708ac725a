package dev.a2atasks.task;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.support.ApiError;
import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Every kind of bad input gets INVALID_ARGUMENT (HTTP 400) naming the field, with the same
 * message on every binding that can carry the value, before any query runs. Never a 500.
 */
@QuarkusTest
class BadInputTest extends BindingTest {

    private static final String TENANT = "BadInputTest";
    private static final String STATES = "status must be one of TASK_STATE_SUBMITTED, TASK_STATE_WORKING, TASK_STATE_COMPLETED,"
            + " TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_INPUT_REQUIRED, TASK_STATE_REJECTED, TASK_STATE_AUTH_REQUIRED";
    private static final String LONG = "x".repeat(10 * 1024);

    @BeforeAll
    void oneTask() {
        db.clearTenant(TENANT);
        db.insertTask(TENANT, "alice", "t1", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
    }

    static Stream<Arguments> badListRequests() {
        return Stream.of(
                bad(Map.of("pageSize", "0"), "pageSize", "pageSize must be between 1 and 100, got 0"),
                bad(Map.of("pageSize", "101"), "pageSize", "pageSize must be between 1 and 100, got 101"),
                bad(Map.of("pageSize", "-1"), "pageSize", "pageSize must be between 1 and 100, got -1"),
                bad(Map.of("pageSize", "abc"), "pageSize", "pageSize must be an integer between 1 and 100"),
                bad(Map.of("pageSize", "99999999999"), "pageSize", "pageSize must be between 1 and 100, got 99999999999"),
                bad(Map.of("historyLength", "-5"), "historyLength", "historyLength must not be negative, got -5"),
                bad(Map.of("historyLength", "x"), "historyLength", "historyLength must be a non-negative integer"),
                bad(Map.of("status", "TASK_STATE_RUNNING"), "status", STATES),
                bad(Map.of("statusTimestampAfter", "yesterday"), "statusTimestampAfter",
                        "statusTimestampAfter must be an RFC 3339 timestamp such as 2026-01-31T12:00:00Z"),
                bad(Map.of("statusTimestampAfter", "2026-01-31T12:00:00"), "statusTimestampAfter",
                        "statusTimestampAfter must be an RFC 3339 timestamp such as 2026-01-31T12:00:00Z"),
                bad(Map.of("includeArtifacts", "maybe"), "includeArtifacts", "includeArtifacts must be true or false"),
                bad(Map.of("pageToken", "%%%"), "pageToken", "pageToken is malformed"),
                bad(Map.of("pageToken", LONG), "pageToken", "pageToken is malformed"),
                bad(Map.of("contextId", LONG), "contextId", "contextId must be at most 1024 characters"),
                bad(Map.of("tenant", LONG), "tenant", "tenant must be at most 1024 characters"));
    }

    private static Arguments bad(Map<String, String> params, String field, String message) {
        String name = params.entrySet().stream()
                .map(e -> e.getKey() + "=" + (e.getValue().length() > 20 ? e.getValue().length() + " chars" : e.getValue()))
                .findFirst().orElseThrow();
        return Arguments.of(name, params, field, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badListRequests")
    void listTasksRefusesWithTheSameErrorOnEveryBinding(String name, Map<String, String> params, String field, String message) {
        List<ApiError> errors = new ArrayList<>();
        bindings().map(this::api).filter(api -> api.canExpress(params)).forEach(api -> {
            ApiException e = assertThrows(ApiException.class, () -> api.list(Tokens.valid(TENANT, "alice"), params), api.name());
            assertEquals(new ApiError("INVALID_ARGUMENT", message, List.of(field), null), e.error(), api.name());
            errors.add(e.error());
        });
        assertEquals(true, errors.size() >= 1);
    }

    @Test
    void everyBadFieldIsNamedAtOnce() {
        Map<String, String> params = Map.of("pageSize", "0", "historyLength", "-1", "status", "NOPE");
        for (TaskApi api : bindings().map(this::api).toList()) {
            ApiException e = assertThrows(ApiException.class, () -> api.list(Tokens.valid(TENANT, "alice"), params));
            assertEquals(List.of("status", "pageSize", "historyLength"), e.error().fields(), api.name());
            assertEquals("INVALID_ARGUMENT", e.error().status());
        }
    }

    @Test
    void getTaskRefusesBadIds() {
        for (TaskApi api : bindings().map(this::api).toList()) {
            ApiException tooLong = assertThrows(ApiException.class, () -> api.get(Tokens.valid(TENANT, "alice"), null, LONG, null));
            assertEquals(new ApiError("INVALID_ARGUMENT", "id must be at most 1024 characters", List.of("id"), null), tooLong.error());
            ApiException negative = assertThrows(ApiException.class, () -> api.get(Tokens.valid(TENANT, "alice"), null, "t1", "-1"));
            assertEquals(new ApiError("INVALID_ARGUMENT", "historyLength must not be negative, got -1", List.of("historyLength"), null),
                    negative.error());
        }
        ApiException missing = assertThrows(ApiException.class, () -> api("GRPC").get(Tokens.valid(TENANT, "alice"), null, "", null));
        assertEquals(new ApiError("INVALID_ARGUMENT", "id is required", List.of("id"), null), missing.error());
    }

    @Test
    void unknownQueryParametersAreIgnored() {
        given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + Tokens.valid(TENANT, "alice"))
                .queryParam("colour", "blue").queryParam("page_size", "oops")
                .get("/tasks").then().statusCode(200).body("tasks[0].id", equalTo("t1"));
    }

    @Test
    void notFoundBodiesDifferOnlyInTheId() {
        String bearer = "Bearer " + Tokens.valid(TENANT, "alice");
        db.insertTask(TENANT, "bob", "bobs-task", "", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
        String othersTask = given().header("A2A-Version", "1.0").header("Authorization", bearer).get("/tasks/bobs-task")
                .then().statusCode(404).extract().asString();
        String missing = given().header("A2A-Version", "1.0").header("Authorization", bearer).get("/tasks/nothing-here")
                .then().statusCode(404).extract().asString();
        assertEquals(othersTask.replace("bobs-task", "ID"), missing.replace("nothing-here", "ID"));
        assertEquals("{\"error\":{\"code\":404,\"status\":\"NOT_FOUND\",\"message\":\"Task not found: ID\",\"details\":[{"
                + "\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\","
                + "\"domain\":\"a2a-protocol.org\",\"metadata\":{\"taskId\":\"ID\"}}]}}", missing.replace("nothing-here", "ID"));
    }
}
