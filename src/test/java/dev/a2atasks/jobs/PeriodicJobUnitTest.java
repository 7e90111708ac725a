package dev.a2atasks.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class PeriodicJobUnitTest {

    @Test
    void aPassThatThrowsDoesNotEndTheSchedule() throws InterruptedException {
        // A bare ScheduledExecutorService stops for good after the first exception; the job must not.
        AtomicInteger passes = new AtomicInteger();
        CountDownLatch third = new CountDownLatch(3);
        PeriodicJob job = PeriodicJob.every("test-throws", Duration.ofMillis(10), () -> {
            passes.incrementAndGet();
            third.countDown();
            throw new IllegalStateException("every pass fails");
        });
        try {
            assertTrue(third.await(5, TimeUnit.SECONDS), "passes after a failing one: " + passes.get());
        } finally {
            job.stop(Duration.ZERO);
        }
    }

    @Test
    void stopWaitsForAPassInFlightWithinItsGraceThenInterruptsIt() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        PeriodicJob job = PeriodicJob.start("test-stop", Duration.ZERO, Duration.ofHours(1), () -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertTrue(started.await(5, TimeUnit.SECONDS));
        long t0 = System.nanoTime();
        job.stop(Duration.ofMillis(200));
        long waitedMs = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(waitedMs >= 150 && waitedMs < 5_000, "stop waited " + waitedMs + " ms for a 200 ms grace");
        assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the pass still running after the grace was interrupted");
    }

    @Test
    void noMorePassesAfterStop() throws InterruptedException {
        AtomicInteger passes = new AtomicInteger();
        CountDownLatch running = new CountDownLatch(2);
        PeriodicJob job = PeriodicJob.every("test-after-stop", Duration.ofMillis(5), () -> {
            passes.incrementAndGet();
            running.countDown();
        });
        assertTrue(running.await(5, TimeUnit.SECONDS), "the job ran before it was stopped");
        job.stop(Duration.ofSeconds(1));
        int atStop = passes.get();
        Thread.sleep(100); // twenty intervals: a pass scheduled after stop would have run by now
        assertEquals(atStop, passes.get());
    }

    @Test
    void aZeroOrNegativeIntervalIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PeriodicJob.every("test-zero", Duration.ZERO, () -> { }));
    }
}
