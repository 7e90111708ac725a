package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Retry delays: doubling from the initial delay, capped, with jitter that never reverses the growth before the cap. */
class BackoffUnitTest {

    @Test
    void withoutJitterEachDelayDoublesUpToTheCap() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0);
        long[] expected = { 1, 2, 4, 8, 16, 30, 30 };
        for (int attempts = 1; attempts <= expected.length; attempts++) {
            assertEquals(Duration.ofSeconds(expected[attempts - 1]), backoff.delay(attempts), "after " + attempts);
        }
        assertEquals(Duration.ofSeconds(30), backoff.delay(1_000), "no overflow however many attempts");
    }

    @Test
    void jitterAddsAtMostAQuarterAndDelaysStillGrow() {
        Random random = new Random(7);
        Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofMinutes(5), random::nextDouble);
        for (int trial = 0; trial < 1_000; trial++) {
            long previous = 0;
            for (int attempts = 1; attempts <= 10; attempts++) {
                long delay = backoff.delay(attempts).toMillis();
                long base = 200L << (attempts - 1);
                assertTrue(delay >= base && delay <= base + base / 4, attempts + ": " + delay);
                assertTrue(delay > previous, "grows: " + previous + " then " + delay);
                previous = delay;
            }
        }
    }
}
