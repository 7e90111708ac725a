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
 * What one replica holds is bounded. Runs (queued or running) and the bytes of their input: a
 * message beyond either bound is refused as UNAVAILABLE with a retry hint before anything is
 * written, and accepted again once runs end. Open streams per caller: one beyond the bound is
 * refused as RESOURCE_EXHAUSTED, another caller's are not affected, and a closed one frees its place.
 */
@QuarkusTest
@TestProfile(ReplicaBoundsTest.SmallQueue.class)
class ReplicaBoundsTest extends BindingTest {

    public static class SmallQueue implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("a2a.agent.max-queued", "3", "a2a.agent.max-queued-bytes", "64K", "a2a.agent.max-concurrency", "1",
                    "a2a.demo-agent.slow-step-delay", "300ms", "a2a.rate-limit.max-open-streams", "2");
        }
    }

    private static final String TENANT = "ReplicaBoundsTest";

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

    @Test
    void aCallerHoldsAtMostItsBoundOfOpenStreams() throws Exception {
        String tenant = TENANT + "-streams";
        db.clearTenant(tenant);
        db.insertTask(tenant, "alice", "busy", "ctx", "TASK_STATE_WORKING", java.time.Instant.now().minusSeconds(5));
        db.insertTask(tenant, "bob", "busy", "ctx", "TASK_STATE_WORKING", java.time.Instant.now().minusSeconds(5));
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        List<java.util.concurrent.CompletableFuture<java.net.http.HttpResponse<java.io.InputStream>>> open = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            open.add(subscribe(http, Tokens.valid(tenant, "alice")));
            assertEquals(200, open.get(i).get(10, java.util.concurrent.TimeUnit.SECONDS).statusCode());
        }
        java.net.http.HttpResponse<java.io.InputStream> third = subscribe(http, Tokens.valid(tenant, "alice")).get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(429, third.statusCode());
        assertEquals("1", third.headers().firstValue("Retry-After").orElse(null));
        String body = new String(third.body().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(body.contains("RESOURCE_EXHAUSTED") && body.contains("open-streams"), body);
        var bobs = subscribe(http, Tokens.valid(tenant, "bob")).get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(200, bobs.statusCode(), "another caller is not affected");

        open.get(0).get().body().close(); // the client leaves: its place is given back
        long deadline = System.currentTimeMillis() + 10_000;
        int status;
        do {
            Thread.sleep(100);
            var again = subscribe(http, Tokens.valid(tenant, "alice")).get(10, java.util.concurrent.TimeUnit.SECONDS);
            status = again.statusCode();
            if (status == 200) {
                again.body().close();
            }
        } while (status != 200 && System.currentTimeMillis() < deadline);
        assertEquals(200, status);
        open.get(1).get().body().close();
        bobs.body().close();
    }

    private java.util.concurrent.CompletableFuture<java.net.http.HttpResponse<java.io.InputStream>> subscribe(java.net.http.HttpClient http,
            String bearer) {
        return http.sendAsync(java.net.http.HttpRequest.newBuilder(java.net.URI.create(root + "tasks/busy:subscribe"))
                .header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0").header("Accept", "text/event-stream").GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofInputStream());
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
