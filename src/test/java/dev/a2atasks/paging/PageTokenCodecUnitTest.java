package dev.a2atasks.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import dev.a2atasks.error.A2AException;

/** The page-token codec and the walk binding, without Quarkus: round trip, binding, expiry, rotation, spelling. */
class PageTokenCodecUnitTest {

    private static final SecretKeySpec K1 = new SecretKeySpec(new byte[32], "AES");
    private static final SecretKeySpec K2 = new SecretKeySpec("0123456789abcdef0123456789abcdef".getBytes(), "AES");
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-06-01T00:00:00Z"));
    private final WalkBinding alice = WalkBinding.of("t", "alice", null, "TASK_STATE_WORKING", null, 0, false);

    private PageTokenCodec codec(String current) {
        return new PageTokenCodec(new KeyRing(current, Map.of("k1", K1, "k2", K2)), Duration.ofSeconds(600), now::get);
    }

    @Test
    void aSealedCursorOpensToItselfForTheSameWalk() {
        PageCursor cursor = new PageCursor(1_780_000_000_123_456L, "task-ü-\uD83D\uDE00", 12_345);
        String token = codec("k2").seal(cursor, alice);
        assertEquals(cursor, codec("k2").open(token, alice));
        assertNotEquals(token, codec("k2").seal(cursor, alice), "a fresh nonce per token");
    }

    @Test
    void anyOtherCallerOrFilterIsRefused() {
        String token = codec("k2").seal(new PageCursor(1, "x", 1), alice);
        for (WalkBinding other : new WalkBinding[] { WalkBinding.of("t", "bob", null, "TASK_STATE_WORKING", null, 0, false),
                WalkBinding.of("u", "alice", null, "TASK_STATE_WORKING", null, 0, false),
                WalkBinding.of("t", "alice", "", "TASK_STATE_WORKING", null, 0, false),
                WalkBinding.of("t", "alice", null, null, null, 0, false),
                WalkBinding.of("t", "alice", null, "TASK_STATE_WORKING", 0L, 0, false),
                WalkBinding.of("t", "alice", null, "TASK_STATE_WORKING", null, 1, false),
                WalkBinding.of("t", "alice", null, "TASK_STATE_WORKING", null, 0, true) }) {
            assertEquals(PageTokenCodec.OTHER_WALK, refusal(codec("k2"), token, other));
        }
    }

    @Test
    void expiryRotationAndDamage() {
        String token = codec("k2").seal(new PageCursor(1, "x", 1), alice);
        assertEquals(new PageCursor(1, "x", 1), codec("k1").open(token, alice), "an older current key still opens k2's tokens while k2 is in the ring");
        PageTokenCodec withoutK2 = new PageTokenCodec(new KeyRing("k1", Map.of("k1", K1)), Duration.ofSeconds(600), now::get);
        assertEquals(PageTokenCodec.UNKNOWN_KEY, refusal(withoutK2, token, alice));
        byte[] raw = Base64.getUrlDecoder().decode(token);
        raw[raw.length - 1] ^= 1;
        assertEquals(PageTokenCodec.BAD_SIGNATURE, refusal(codec("k2"), Base64.getUrlEncoder().withoutPadding().encodeToString(raw), alice));
        assertEquals(PageTokenCodec.MALFORMED, refusal(codec("k2"), token + "=", alice));
        assertEquals(PageTokenCodec.MALFORMED, refusal(codec("k2"), "%%%", alice));
        now.set(now.get().plusSeconds(600));
        assertEquals(PageTokenCodec.EXPIRED, refusal(codec("k2"), token, alice));
    }

    private static String refusal(PageTokenCodec codec, String token, WalkBinding binding) {
        A2AException e = assertThrows(A2AException.class, () -> codec.open(token, binding));
        assertEquals(PageTokenCodec.FIELD, e.violations().get(0).field());
        return e.getMessage();
    }
}
