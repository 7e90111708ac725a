package dev.a2atasks.execution;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * A replica holds a bounded number of runs (queued or running) and bytes of their input: a
 * message beyond either bound is refused as UNAVAILABLE with a retry hint before anything is
 * written, and accepted again once runs end.
 */
@QuarkusTest
@TestProfile(AgentQueueBoundTest.SmallQueue.class)
class AgentQueueBoundTest extends BindingTest {

    public static class SmallQueue implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("a2a.agent.max-queued", "3", "a2a.agent.max-queued-bytes", "64K", "a2a.agent.max-concurrency", "1",
                    "a2a.demo-agent.slow-step-delay", "300ms");
        }
    }

    private static final String TENANT = "AgentQueueBoundTest";

    @Test
    void messagesBeyondTheQueuesCountOrBytesAreRefusedBeforeAnythingIsWrittenAndAcceptedOnceRunsEnd() throws Exception {
        db.clearTenant(TENANT);
        String bearer = Tokens.valid(TENANT, "alice");
        String big = "slow " + "x".repeat(40_000);
        List<String> accepted = new ArrayList<>();
        accepted.add(taskId(send(bearer, big), 200));
        refused(send(bearer, big), "64K of input: a second 40 KB message is one too many");
        accepted.add(taskId(send(bearer, "slow a"), 200));
        accepted.add(taskId(send(bearer, "slow b"), 200));
        refused(send(bearer, "slow c"), "three runs held: a fourth is one too many");
        assertEquals(3, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + TENANT + "'"), "nothing written for the refused");

        for (String id : accepted) {
            given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer).body("{}")
                    .post(root + "tasks/" + id + ":cancel").then().statusCode(200);
        }
        long deadline = System.currentTimeMillis() + 15_000;
        Response again;
        do {
            Thread.sleep(100);
            again = send(bearer, big);
        } while (again.statusCode() == 503 && System.currentTimeMillis() < deadline);
        assertEquals(200, again.statusCode(), "the runs ended, their places are free again: " + again.asString());
    }

    private Response send(String bearer, String text) {
        String body = "{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"" + text
                + "\"}]},\"configuration\":{\"returnImmediately\":true}}";
        return given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                .body(body).post(root + "message:send");
    }

    private static String taskId(Response response, int status) {
        assertEquals(status, response.statusCode(), response.asString());
        return response.jsonPath().getString("task.id");
    }

    private static void refused(Response response, String why) {
        assertEquals(503, response.statusCode(), why + ": " + response.asString());
        assertEquals("1", response.header("Retry-After"), why);
        assertEquals("UNAVAILABLE", response.jsonPath().getString("error.status"), why);
        assertTrue(response.jsonPath().getString("error.message").contains("runs to do already"), response.asString());
    }
}
