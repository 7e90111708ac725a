package dev.a2atasks.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;

/** Replicas sharing one bucket through leases, on a clock the test moves; the shared store is faked in memory. */
class LeasedLimiterUnitTest {

    private static final long MS = 1_000_000L;

    /** The shared bucket as SharedBuckets keeps it: refilled by elapsed time at each lease. */
    static final class FakeStore implements LeasedLimiter.Lender {
        double tokens = Double.NaN;
        long updatedAt;
        long now;
        int leases;
        boolean down;

        @Override
        public Uni<LeasedLimiter.Lease> lease(String tenant, String subject, RequestClass requestClass, RateLimiter.Limit limit, int want) {
            leases++;
            if (down) {
                return Uni.createFrom().failure(new IllegalStateException("connection refused"));
            }
            if (Double.isNaN(tokens)) {
                tokens = limit.burst();
            } else {
                tokens = Math.min(limit.burst(), tokens + (now - updatedAt) / 1e9 * limit.perSecond());
            }
            updatedAt = now;
            int granted = (int) Math.min(want, Math.floor(tokens));
            tokens -= granted;
            long wait = granted > 0 ? 0 : (long) Math.ceil((1 - tokens) / limit.perSecond() * 1e9);
            return Uni.createFrom().item(new LeasedLimiter.Lease(granted, wait));
        }
    }

    private static boolean passes(LeasedLimiter limiter, RequestClass requestClass, long now) {
        return limiter.acquire("t", "alice", requestClass, now).await().indefinitely().isEmpty();
    }

    @Test
    void twoReplicasTogetherAdmitTheSharedBurstNotTwice() {
        FakeStore store = new FakeStore();
        Map<RequestClass, RateLimiter.Limit> limits = Map.of(RequestClass.WALK_START, new RateLimiter.Limit(60, 5));
        LeasedLimiter a = new LeasedLimiter(limits, store, e -> { }, () -> { });
        LeasedLimiter b = new LeasedLimiter(limits, store, e -> { }, () -> { });
        int passed = 0;
        for (int i = 0; i < 200; i++) {
            if (passes(i % 2 == 0 ? a : b, RequestClass.WALK_START, 0)) {
                passed++;
            }
        }
        assertEquals(60, passed, "the burst, once, across both replicas");
        assertEquals(200, store.leases, "walk starts lease one token at a time: each is decided by the shared bucket");
        Optional<Duration> wait = a.acquire("t", "alice", RequestClass.WALK_START, 0).await().indefinitely();
        assertEquals(Optional.of(Duration.ofMillis(200)), wait);
        store.now = 200 * MS;
        assertTrue(passes(b, RequestClass.WALK_START, 200 * MS), "after the wait it was told");
    }

    @Test
    void pagesAreLeasedInBatchesAndSpentFromMemory() {
        FakeStore store = new FakeStore();
        Map<RequestClass, RateLimiter.Limit> limits = Map.of(RequestClass.PAGE, new RateLimiter.Limit(2000, 1000));
        assertEquals(100, LeasedLimiter.batch(limits.get(RequestClass.PAGE)));
        LeasedLimiter a = new LeasedLimiter(limits, store, e -> { }, () -> { });
        for (int i = 0; i < 1000; i++) {
            assertTrue(passes(a, RequestClass.PAGE, i * MS / 10));
        }
        assertEquals(10, store.leases, "1000 pages, 10 leases");
    }

    @Test
    void unspentTokensLapseInsteadOfBanking() {
        FakeStore store = new FakeStore();
        Map<RequestClass, RateLimiter.Limit> limits = Map.of(RequestClass.GET, new RateLimiter.Limit(100, 100));
        LeasedLimiter a = new LeasedLimiter(limits, store, e -> { }, () -> { });
        assertTrue(passes(a, RequestClass.GET, 0)); // leases 10, spends 1
        assertEquals(1, store.leases);
        assertTrue(passes(a, RequestClass.GET, 500 * MS)); // from memory
        assertEquals(1, store.leases);
        store.now = LeasedLimiter.LEASE_LIFETIME.toNanos() + MS;
        assertTrue(passes(a, RequestClass.GET, store.now));
        assertEquals(2, store.leases, "the rest of the first lease lapsed: a new one was taken");
    }

    @Test
    void aStoreOutageFallsBackToThisReplicasOwnLimits() {
        FakeStore store = new FakeStore();
        store.down = true;
        List<String> told = new ArrayList<>();
        AtomicInteger answered = new AtomicInteger();
        Map<RequestClass, RateLimiter.Limit> limits = Map.of(RequestClass.WALK_START, new RateLimiter.Limit(3, 1));
        LeasedLimiter a = new LeasedLimiter(limits, store, e -> told.add(e.getMessage()), answered::incrementAndGet);
        int passed = 0;
        for (int i = 0; i < 10; i++) {
            if (passes(a, RequestClass.WALK_START, 0)) {
                passed++;
            }
        }
        assertEquals(3, passed, "no refusal of everyone: this replica's own burst passes, then its own limit holds");
        assertEquals(10, told.size());
        store.down = false;
        store.now = 5_000 * MS;
        assertTrue(passes(a, RequestClass.WALK_START, store.now));
        assertEquals(1, answered.get());
    }
}
