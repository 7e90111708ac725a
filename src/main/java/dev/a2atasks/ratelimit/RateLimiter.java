package dev.a2atasks.ratelimit;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One bucket per (tenant, subject, request class), made on first use. Identity values are the
 * keys exactly as the token carried them. Buckets that have filled up again are forgotten now and
 * then, so memory follows the callers active in the last refill period, not every caller ever seen.
 */
public final class RateLimiter {

    /** A class's limit: up to {@code burst} requests at once, {@code perSecond} sustained. */
    public record Limit(int burst, double perSecond) {
        public Limit {
            if (burst < 1 || !(perSecond > 0)) {
                throw new IllegalArgumentException("a limit needs burst >= 1 and per-second > 0, not " + burst + " and " + perSecond);
            }
        }
    }

    private record Key(String tenant, String subject, RequestClass requestClass) {
    }

    /** How often (in acquisitions) full buckets are swept out. */
    private static final int SWEEP_EVERY = 4096;

    private final Map<RequestClass, Limit> limits;
    private final Map<Key, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final AtomicLong acquisitions = new AtomicLong();

    /** @param limits the limited classes; a class without a limit is never refused */
    public RateLimiter(Map<RequestClass, Limit> limits) {
        this.limits = limits.isEmpty() ? Map.of() : new EnumMap<>(limits);
    }

    /** Empty when the request may go ahead (its token is taken); else how long until it would pass. */
    public Optional<java.time.Duration> acquire(String tenant, String subject, RequestClass requestClass, long nowNanos) {
        Limit limit = limits.get(requestClass);
        if (limit == null) {
            return Optional.empty();
        }
        if (acquisitions.incrementAndGet() % SWEEP_EVERY == 0) {
            sweep(nowNanos);
        }
        TokenBucket bucket = buckets.computeIfAbsent(new Key(tenant, subject, requestClass),
                k -> new TokenBucket(limit.burst(), limit.perSecond(), nowNanos));
        long wait = bucket.tryTake(nowNanos);
        return wait == 0 ? Optional.empty() : Optional.of(java.time.Duration.ofNanos(wait));
    }

    /**
     * Forgets full buckets. A request racing the removal may spend a token of the forgotten
     * bucket: the error is one token, in the caller's favour.
     */
    void sweep(long nowNanos) {
        buckets.entrySet().removeIf(e -> e.getValue().isFull(nowNanos));
    }

    int bucketCount() {
        return buckets.size();
    }
}
