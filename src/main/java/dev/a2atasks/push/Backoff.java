package dev.a2atasks.push;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Delay before the next attempt after {@code attempts} failed ones: {@code initial × 2^(attempts-1)},
 * capped at {@code max}, plus up to 25% jitter so webhooks that failed together are not retried in
 * lockstep. The jitter never makes a later delay shorter than an earlier one (each doubles, the
 * jitter adds at most a quarter), until the cap.
 */
public record Backoff(Duration initial, Duration max, DoubleSupplier random) {

    public Duration delay(int attempts) {
        long base = Math.max(1, initial.toMillis());
        for (int i = 1; i < attempts && base < max.toMillis(); i++) {
            base *= 2;
        }
        base = Math.min(base, max.toMillis());
        long jitter = (long) (base * 0.25 * random.getAsDouble());
        return Duration.ofMillis(base + jitter);
    }
}
