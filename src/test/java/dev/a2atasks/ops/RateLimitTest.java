package dev.a2atasks.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * The rate limits as shipped (the test suite elsewhere runs with them off): a tight loop of walk
 * starts is refused after the walk-start burst on each binding with the documented answer, while
 * the continuation pages of a walk in progress still pass, the retry delay is usable, and another
 * caller is not affected.
 */
@QuarkusTest
@TestProfile(RateLimitTest.Shipped.class)
class RateLimitTest extends BindingTest {

    /** Only the switch: every limit is the default from application.properties. */
    public static class Shipped implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("a2a.rate-limit.enabled", "true");
        }
    }

    private static final int WALK_START_BURST = 60; // a2a.rate-limit.walk-start.burst
    private static final double WALK_START_PER_SECOND = 5; // a2a.rate-limit.walk-start.per-second

    /** What a refused walk start said, the same facts read from each binding's shape. */
    record Refusal(String status, String reason, String limit, Duration retryDelay, String retryAfterHeader) {
    }

    /** One walk start (pageSize 10); null when it was answered, else its refusal. */
    private Refusal walkStart(String binding, String bearer, String tenant) {
        return page(binding, bearer, tenant, "");
    }

    private Refusal page(String binding, String bearer, String tenant, String token) {
        switch (binding) {
            case "HTTP+JSON" -> {
                Response r = given().urlEncodingEnabled(true).header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                        .queryParam("pageSize", 10).queryParam("pageToken", token).get("/" + tenant + "/tasks");
                if (r.statusCode() == 200) {
                    return null;
                }
                assertEquals(429, r.statusCode(), r.asString());
                JsonPath body = r.jsonPath();
                assertEquals(429, body.getInt("error.code"));
                return new Refusal(body.getString("error.status"),
                        body.getString("error.details.find { it.'@type'.endsWith('ErrorInfo') }.reason"),
                        body.getString("error.details.find { it.'@type'.endsWith('ErrorInfo') }.metadata.limit"),
                        protoJsonDuration(body.getString("error.details.find { it.'@type'.endsWith('RetryInfo') }.retryDelay")),
                        r.header("Retry-After"));
            }
            case "JSONRPC" -> {
                String params = "{\"tenant\":\"" + tenant + "\",\"pageSize\":10" + (token.isEmpty() ? "" : ",\"pageToken\":\"" + token + "\"") + "}";
                Response r = given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer).contentType("application/json")
                        .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":" + params + "}").post("/");
                JsonPath body = r.jsonPath();
                if (body.get("error") == null) {
                    assertEquals(200, r.statusCode());
                    return null;
                }
                assertEquals(429, r.statusCode(), r.asString());
                assertEquals(-31429, body.getInt("error.code"), r.asString());
                return new Refusal("RESOURCE_EXHAUSTED", body.getString("error.data.find { it.'@type'.endsWith('ErrorInfo') }.reason"),
                        body.getString("error.data.find { it.'@type'.endsWith('ErrorInfo') }.metadata.limit"),
                        protoJsonDuration(body.getString("error.data.find { it.'@type'.endsWith('RetryInfo') }.retryDelay")),
                        r.header("Retry-After"));
            }
            case "GRPC" -> {
                try (GrpcChannels grpc = new GrpcChannels(root)) {
                    grpc.stub(bearer).listTasks(ListTasksRequest.newBuilder().setTenant(tenant).setPageSize(10).setPageToken(token).build());
                    return null;
                } catch (StatusRuntimeException e) {
                    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), String.valueOf(e.getStatus()));
                    ErrorInfo info = GrpcChannels.errorInfo(e);
                    RetryInfo retry = StatusProto.fromThrowable(e).getDetailsList().stream().filter(a -> a.is(RetryInfo.class))
                            .map(a -> {
                                try {
                                    return a.unpack(RetryInfo.class);
                                } catch (InvalidProtocolBufferException x) {
                                    throw new AssertionError(x);
                                }
                            }).findFirst().orElseThrow();
                    return new Refusal(e.getStatus().getCode().name(), info.getReason(), info.getMetadataMap().get("limit"),
                            Duration.ofSeconds(retry.getRetryDelay().getSeconds(), retry.getRetryDelay().getNanos()), null);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            default -> throw new IllegalArgumentException(binding);
        }
    }

    private String firstPageToken(String binding, String bearer, String tenant) {
        return switch (binding) {
            case "HTTP+JSON" -> given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                    .queryParam("pageSize", 10).get("/" + tenant + "/tasks").then().statusCode(200).extract().jsonPath()
                    .getString("nextPageToken");
            default -> {
                ListTasksResponse page = api(binding).list(bearer, Map.of("tenant", tenant, "pageSize", "10"));
                yield page.getNextPageToken();
            }
        };
    }

    private String nextToken(String binding, String bearer, String tenant, String token) {
        return api(binding).list(bearer, Map.of("tenant", tenant, "pageSize", "10", "pageToken", token)).getNextPageToken();
    }

    private static Duration protoJsonDuration(String text) {
        assertNotNull(text, "a RetryInfo detail");
        assertTrue(text.endsWith("s"), text);
        return Duration.ofNanos(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 1e9));
    }

    @ParameterizedTest
    @MethodSource("bindings")
    void aTightLoopOfWalkStartsIsRefusedWhileAWalkInProgressProceeds(String binding) throws InterruptedException {
        String tenant = freshTenant("loop", api(binding));
        String subject = "looper-" + binding;
        String bearer = Tokens.valid(tenant, subject);
        Instant ts = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < 200; i++) {
            db.insertTask(tenant, subject, String.format("t%03d", i), "c", "TASK_STATE_COMPLETED", ts.plusSeconds(i));
        }

        // A walk begins (one walk start), then the client starts walks in a tight loop.
        String token = firstPageToken(binding, bearer, tenant);
        assertFalse(token.isEmpty());
        long started = System.nanoTime();
        int passed = 1;
        Refusal refusal = null;
        while (refusal == null && passed < 1000) {
            refusal = walkStart(binding, bearer, tenant);
            if (refusal == null) {
                passed++;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertNotNull(refusal, "a tight loop of walk starts is refused");
        assertTrue(passed >= WALK_START_BURST, "the burst passes: " + passed);
        assertTrue(passed <= WALK_START_BURST + WALK_START_PER_SECOND * seconds + 1,
                passed + " walk starts passed in " + seconds + " s: more than the burst plus the refill");
        System.out.printf("%s: %d walk starts passed in %.2f s, then %s%n", binding, passed, seconds, refusal);

        assertEquals("RESOURCE_EXHAUSTED", refusal.status());
        assertEquals("RATE_LIMITED", refusal.reason());
        assertEquals("walk-start", refusal.limit());
        assertTrue(refusal.retryDelay().compareTo(Duration.ZERO) > 0
                && refusal.retryDelay().compareTo(Duration.ofMillis((long) (1000 / WALK_START_PER_SECOND) + 1)) <= 0,
                "the delay until the next token: " + refusal.retryDelay());
        if (!binding.equals("GRPC")) {
            assertEquals("1", refusal.retryAfterHeader(), "Retry-After: the delay in whole seconds, rounded up");
        }

        // The loop goes on for 2 s: it is held to the refill rate, most of its starts refused.
        long loopStart = System.nanoTime();
        int loopPassed = 0;
        int loopRefused = 0;
        while (System.nanoTime() - loopStart < 2_000_000_000L) {
            if (walkStart(binding, bearer, tenant) == null) {
                loopPassed++;
            } else {
                loopRefused++;
            }
        }
        double loopSeconds = (System.nanoTime() - loopStart) / 1e9;
        // (Half a second of slack: the server sees each request a little after the client sent it.)
        assertTrue(loopPassed <= WALK_START_PER_SECOND * (loopSeconds + 0.5) + 2, loopPassed + " passed in " + loopSeconds + " s");
        assertTrue(loopRefused > 0, loopRefused + " refused, " + loopPassed + " passed");

        // Meanwhile the walk in progress goes on to its end: every continuation page passes.
        int pages = 1;
        while (!token.isEmpty()) {
            token = nextToken(binding, bearer, tenant, token);
            pages++;
        }
        assertEquals(20, pages, "every continuation page passed");

        // Another caller (another subject in the same tenant) is not affected.
        assertNull(walkStart(binding, Tokens.valid(tenant, "bystander-" + binding), tenant));

        // Waiting as told lets the next walk start through.
        Refusal again;
        do {
            again = walkStart(binding, bearer, tenant);
        } while (again == null);
        Thread.sleep(again.retryDelay().toMillis());
        assertNull(walkStart(binding, bearer, tenant), "after the retry delay");
    }
}
