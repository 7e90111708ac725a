package dev.a2atasks.mirror;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The mirror's retry delays: doubling from the interval, capped, with half of each delay random. */
class MirrorBackoffUnitTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration MAX = Duration.ofMinutes(1);

    @Test
    void delaysGrowThenStayUnderTheCapWithJitter() {
        for (int failures = 1; failures <= 40; failures++) {
            long full = Math.min(INTERVAL.toMillis() << Math.min(failures - 1, 20), MAX.toMillis());
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int i = 0; i < 200; i++) {
                long delay = MirrorJob.backoff(INTERVAL, failures, MAX).toMillis();
                assertTrue(delay >= full / 2 && delay <= full, failures + " failures: " + delay + " ms outside [" + full / 2
                        + ", " + full + "]");
                min = Math.min(min, delay);
                max = Math.max(max, delay);
            }
            assertTrue(max > min, "jittered: replicas that failed together do not retry together");
        }
    }
}
