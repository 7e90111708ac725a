package dev.a2atasks.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Token buckets and the per-caller limiter, on a clock the test moves. */
class RateLimiterUnitTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aBucketGivesItsBurstThenOneTokenPerRefillInterval() {
        TokenBucket bucket = new TokenBucket(3, 2, 0); // 3 at once, then one every 500 ms
        assertEquals(0, bucket.tryTake(0));
        assertEquals(0, bucket.tryTake(0));
        assertEquals(0, bucket.tryTake(0));
        assertEquals(SECOND / 2, bucket.tryTake(0), "the wait is exactly until the next token");
        assertEquals(SECOND / 4, bucket.tryTake(SECOND / 4));
        assertEquals(0, bucket.tryTake(SECOND / 2), "a caller that waited as told passes");
        assertTrue(bucket.tryTake(SECOND / 2) > 0);
        assertTrue(bucket.isFull(10 * SECOND), "refills up to the burst, no further");
        for (int i = 0; i < 3; i++) {
            assertEquals(0, bucket.tryTake(10 * SECOND));
        }
        assertTrue(bucket.tryTake(10 * SECOND) > 0, "idle time does not bank more than the burst");
    }

    @Test
    void aClockGoingBackwardsNeitherGivesNorTakesTokens() {
        TokenBucket bucket = new TokenBucket(1, 1, 5 * SECOND);
        assertEquals(0, bucket.tryTake(5 * SECOND));
        assertEquals(SECOND, bucket.tryTake(4 * SECOND));
        assertEquals(0, bucket.tryTake(6 * SECOND));
    }

    @Test
    void limitsAreKeptPerCallerAndPerClass() {
        RateLimiter limiter = new RateLimiter(Map.of(RequestClass.WALK_START, new RateLimiter.Limit(2, 1),
                RequestClass.PAGE, new RateLimiter.Limit(100, 100)));
        assertEquals(Optional.empty(), limiter.acquire("t", "alice", RequestClass.WALK_START, 0));
        assertEquals(Optional.empty(), limiter.acquire("t", "alice", RequestClass.WALK_START, 0));
        assertEquals(Optional.of(Duration.ofSeconds(1)), limiter.acquire("t", "alice", RequestClass.WALK_START, 0));
        assertEquals(Optional.empty(), limiter.acquire("t", "alice", RequestClass.PAGE, 0), "pages have their own bucket");
        assertEquals(Optional.empty(), limiter.acquire("t", "bob", RequestClass.WALK_START, 0), "another caller is unaffected");
        assertEquals(Optional.empty(), limiter.acquire("u", "alice", RequestClass.WALK_START, 0), "the same subject in another tenant too");
        assertEquals(Optional.empty(), limiter.acquire("t", "alice", RequestClass.GET, 0), "a class without a limit is never refused");
    }

    @Test
    void identityValuesAreKeysVerbatim() {
        RateLimiter limiter = new RateLimiter(Map.of(RequestClass.GET, new RateLimiter.Limit(1, 1)));
        assertEquals(Optional.empty(), limiter.acquire("", "alice", RequestClass.GET, 0));
        assertEquals(Optional.empty(), limiter.acquire("", "Alice", RequestClass.GET, 0));
        assertEquals(Optional.empty(), limiter.acquire("", "alice ", RequestClass.GET, 0));
        assertTrue(limiter.acquire("", "alice", RequestClass.GET, 0).isPresent());
    }

    @Test
    void fullBucketsAreForgotten() {
        RateLimiter limiter = new RateLimiter(Map.of(RequestClass.GET, new RateLimiter.Limit(10, 10)));
        for (int i = 0; i < 100; i++) {
            limiter.acquire("", "caller-" + i, RequestClass.GET, 0);
        }
        assertEquals(100, limiter.bucketCount());
        limiter.sweep(SECOND / 20);
        assertEquals(100, limiter.bucketCount(), "not yet refilled: kept");
        limiter.sweep(SECOND);
        assertEquals(0, limiter.bucketCount());
    }

    @Test
    void nonsenseLimitsAreRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter.Limit(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter.Limit(5, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter.Limit(5, Double.NaN));
    }
}
