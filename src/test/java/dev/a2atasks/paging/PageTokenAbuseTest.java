package dev.a2atasks.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.support.ApiError;
import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Page tokens cannot be replayed by another caller, reused with other filters, edited, cut,
 * kept past their lifetime, or forged with a key the server does not hold; each misuse gets its
 * own invalid-params error on pageToken, on every binding.
 */
@QuarkusTest
class PageTokenAbuseTest extends BindingTest {

    /** Test profile keys (application.properties): k1 is the previous key, k2 the current one. */
    private static final String PREVIOUS_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

    private static final Instant BASE = Instant.parse("2026-05-01T00:00:00Z");

    @AfterEach
    void realTime() {
        QuarkusMock.installMockForType(new TimeSource(), TimeSource.class);
    }

    private String seed(String test, TaskApi api) {
        String tenant = freshTenant(test, api);
        for (int i = 0; i < 6; i++) {
            db.insertTask(tenant, "alice", "task-" + i, "ctx", i % 2 == 0 ? "TASK_STATE_WORKING" : "TASK_STATE_COMPLETED",
                    BASE.plusSeconds(i));
        }
        return tenant;
    }

    private static String secondPageToken(TaskApi api, String bearer, Map<String, String> params) {
        Map<String, String> first = new HashMap<>(params);
        first.put("pageSize", "2");
        String token = api.list(bearer, first).getNextPageToken();
        assertEquals(false, token.isEmpty());
        return token;
    }

    private static ApiError refused(TaskApi api, String bearer, Map<String, String> params) {
        ApiException e = assertThrows(ApiException.class, () -> api.list(bearer, params));
        assertEquals("INVALID_ARGUMENT", e.error().status(), e.error().toString());
        assertEquals(List.of("pageToken"), e.error().fields());
        return e.error();
    }

    private static Map<String, String> next(String token) {
        return Map.of("pageSize", "2", "pageToken", token);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void replayedByAnotherSubjectOrTenant(String binding) {
        TaskApi api = api(binding);
        String tenant = seed("replay", api);
        String token = secondPageToken(api, Tokens.valid(tenant, "alice"), Map.of());

        assertEquals("pageToken was issued for a different caller or filter set",
                refused(api, Tokens.valid(tenant, "mallory"), next(token)).message());
        assertEquals("pageToken was issued for a different caller or filter set",
                refused(api, Tokens.valid(tenant + "-other", "alice"), next(token)).message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void reusedWithAnotherFilter(String binding) {
        TaskApi api = api(binding);
        String tenant = seed("filter", api);
        String bearer = Tokens.valid(tenant, "alice");
        String token = secondPageToken(api, bearer, Map.of("status", "TASK_STATE_WORKING"));

        Map<String, String> changed = new HashMap<>(next(token));
        changed.put("status", "TASK_STATE_COMPLETED");
        assertEquals("pageToken was issued for a different caller or filter set", refused(api, bearer, changed).message());
        Map<String, String> dropped = next(token);
        assertEquals("pageToken was issued for a different caller or filter set", refused(api, bearer, dropped).message());
        Map<String, String> withHistory = new HashMap<>(next(token));
        withHistory.put("status", "TASK_STATE_WORKING");
        withHistory.put("historyLength", "3");
        assertEquals("pageToken was issued for a different caller or filter set", refused(api, bearer, withHistory).message());

        // The same filters continue the walk; a different pageSize is allowed (it only cuts the same sequence).
        Map<String, String> same = new HashMap<>(next(token));
        same.put("status", "TASK_STATE_WORKING");
        same.put("pageSize", "5");
        assertEquals(List.of("task-0"), ids(api.list(bearer, same)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void editedCutOrGarbageTokens(String binding) {
        TaskApi api = api(binding);
        String tenant = seed("edited", api);
        String bearer = Tokens.valid(tenant, "alice");
        String token = secondPageToken(api, bearer, Map.of());

        byte[] raw = Base64.getUrlDecoder().decode(token);
        raw[raw.length - 20] ^= 0x01; // one bit of the sealed payload
        String flipped = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        assertEquals("pageToken signature is invalid", refused(api, bearer, next(flipped)).message());

        String cut = token.substring(0, token.length() - 8);
        assertEquals("pageToken signature is invalid", refused(api, bearer, next(cut)).message());
        assertEquals("pageToken is malformed", refused(api, bearer, next(token.substring(0, 6))).message());
        assertEquals("pageToken is malformed", refused(api, bearer, next("%%%")).message());
        assertEquals("pageToken is malformed", refused(api, bearer, next("A".repeat(10 * 1024))).message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void expiredTokens(String binding) {
        TaskApi api = api(binding);
        String tenant = seed("expiry", api);
        String bearer = Tokens.valid(tenant, "alice");
        // The clock is set relative to when the token was issued, not to when each check runs: a slow
        // request between the two (a loaded CI machine) must not age the token past its TTL.
        Instant before = Instant.now();
        String token = secondPageToken(api, bearer, Map.of());
        Instant after = Instant.now();

        QuarkusMock.installMockForType(at(before.plus(Duration.ofSeconds(599))), TimeSource.class);
        assertEquals(List.of("task-3", "task-2"), ids(api.list(bearer, next(token))), "still valid just before the TTL");

        QuarkusMock.installMockForType(at(after.plus(Duration.ofSeconds(601))), TimeSource.class);
        assertEquals("pageToken expired; restart the listing without pageToken", refused(api, bearer, next(token)).message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void keyRotation(String binding) {
        TaskApi api = api(binding);
        String tenant = seed("rotation", api);
        String bearer = Tokens.valid(tenant, "alice");
        WalkBinding walk = WalkBinding.of(tenant, "alice", null, null, null, 0, false);
        PageCursor afterTask4 = new PageCursor(BASE.plusSeconds(4).getEpochSecond() * 1_000_000L, "task-4", 6);

        // Sealed before the rotation with the key that is now "previous": still accepted for its lifetime.
        String previous = codec("k1", PREVIOUS_KEY).seal(afterTask4, walk);
        ListTasksResponse page = api.list(bearer, next(previous));
        assertEquals(List.of("task-3", "task-2"), ids(page));
        assertEquals(6, page.getTotalSize());

        // Sealed with a key that has left the ring.
        String retired = codec("k0", "cmV0aXJlZC1rZXktcmV0aXJlZC1rZXktcmV0aXJlZCE=").seal(afterTask4, walk);
        assertEquals("pageToken was sealed with a key that is no longer accepted; restart the listing without pageToken",
                refused(api, bearer, next(retired)).message());

        // A key with a known id but other bytes is a forgery, not a rotation.
        String forged = codec("k2", "cmV0aXJlZC1rZXktcmV0aXJlZC1rZXktcmV0aXJlZCE=").seal(afterTask4, walk);
        assertEquals("pageToken signature is invalid", refused(api, bearer, next(forged)).message());
    }

    private static PageTokenCodec codec(String keyId, String base64Key) {
        KeyRing ring = new KeyRing(keyId, Map.of(keyId, new SecretKeySpec(Base64.getDecoder().decode(base64Key), "AES")));
        return new PageTokenCodec(ring, Duration.ofMinutes(10), Instant::now);
    }

    private static TimeSource at(Instant fixed) {
        return new TimeSource() {
            @Override
            public Instant now() {
                return fixed;
            }
        };
    }
}
