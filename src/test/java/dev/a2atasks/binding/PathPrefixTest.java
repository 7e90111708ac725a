package dev.a2atasks.binding;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

/**
 * {@code a2a.http.path-prefix=/a2a/v1} (set for tests): the HTTP+JSON and JSON-RPC routes answer
 * under the prefix exactly as without it, the prefix wins over a tenant of its name, and a path
 * that merely starts with the same letters is not under it.
 */
@QuarkusTest
class PathPrefixTest extends BindingTest {

    @Test
    void everyRouteAnswersTheSameUnderThePrefix() {
        String tenant = freshTenant("prefix", api("HTTP+JSON"));
        for (int i = 0; i < 3; i++) {
            db.insertTask(tenant, "alice", "p" + i, "ctx", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i));
        }
        String token = Tokens.valid(tenant, "alice");

        assertEquals(body(call(token).get("/tasks?pageSize=2"), 200), body(call(token).get("/a2a/v1/tasks?pageSize=2"), 200));
        assertEquals(body(call(token).get("/tasks/p1"), 200), body(call(token).get("/a2a/v1/tasks/p1"), 200));
        assertEquals(body(call(token).get("/" + tenant + "/tasks/p1"), 200),
                body(call(token).get("/a2a/v1/" + tenant + "/tasks/p1"), 200), "tenant-prefixed routes as well");
        String rpc = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"pageSize\":2}}";
        assertEquals(body(call(token).contentType("application/json").body(rpc).post("/"), 200),
                body(call(token).contentType("application/json").body(rpc).post("/a2a/v1"), 200), "JSON-RPC at the prefix");
        assertEquals(body(call(token).get("/tasks/missing"), 404), body(call(token).get("/a2a/v1/tasks/missing"), 404),
                "errors too");
        body(call(token).get("/a2a/v1x/tasks"), 404); // not under the prefix: no such route
    }

    private static RequestSpecification call(String token) {
        return given().header("Authorization", "Bearer " + token).header("A2A-Version", "1.0");
    }

    private static String body(io.restassured.response.Response response, int status) {
        assertEquals(status, response.statusCode(), response.asString());
        // Page tokens are sealed with a fresh nonce each time: equal pages, different bytes.
        return response.asString().replaceAll("\"nextPageToken\":\"[^\"]*\"", "\"nextPageToken\":\"…\"");
    }
}
