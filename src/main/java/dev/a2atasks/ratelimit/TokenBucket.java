package dev.a2atasks.ratelimit;

/**
 * A token bucket: holds at most {@code burst} tokens, gains {@code perSecond} tokens a second,
 * and each request takes one. Time is passed in (nanoseconds from any fixed origin) so the logic
 * is tested without clocks. Thread-safe; the critical section is a few arithmetic operations.
 */
public final class TokenBucket {

    private static final double NANOS_PER_SECOND = 1_000_000_000d;

    private final double burst;
    private final double perNano;
    private double tokens;
    private long updatedAt;

    public TokenBucket(int burst, double perSecond, long nowNanos) {
        if (burst < 1 || !(perSecond > 0)) {
            throw new IllegalArgumentException("a bucket needs burst >= 1 and perSecond > 0");
        }
        this.burst = burst;
        this.perNano = perSecond / NANOS_PER_SECOND;
        this.tokens = burst;
        this.updatedAt = nowNanos;
    }

    /**
     * Takes one token if there is one and returns 0; otherwise takes nothing and returns how many
     * nanoseconds until one will be there (at least 1).
     */
    public synchronized long tryTake(long nowNanos) {
        refill(nowNanos);
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - tokens) / perNano));
    }

    /** Whether the bucket is full again: forgetting it then changes nothing for its caller. */
    public synchronized boolean isFull(long nowNanos) {
        refill(nowNanos);
        return tokens >= burst;
    }

    private void refill(long nowNanos) {
        long elapsed = nowNanos - updatedAt;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * perNano);
            updatedAt = nowNanos;
        }
    }
}
