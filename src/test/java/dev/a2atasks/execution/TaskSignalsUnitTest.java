package dev.a2atasks.execution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/**
 * Wake-ups shared by the waiters of one task: a waiter that gives up (its poll interval passed)
 * must not disturb the others. It once cancelled the shared future, and every other waiter of
 * that task failed with a CancellationException (found by bench/run under 8 blocking clients).
 */
class TaskSignalsUnitTest {

    @Test
    void aWaiterThatGivesUpLeavesTheOthersWaiting() throws Exception {
        TaskSignals signals = new TaskSignals();
        TaskSignals.Wakeup patient = signals.take(7);
        TaskSignals.Wakeup impatient = signals.take(7);
        CountDownLatch woken = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        patient.await(Duration.ofSeconds(10)).subscribe().with(ignored -> woken.countDown(), failure -> failed.set(true));

        impatient.await(Duration.ofMillis(20)).await().atMost(Duration.ofSeconds(5)); // gives up, cancelling its copy
        impatient.release();

        signals.fire(7);
        assertTrue(woken.await(5, TimeUnit.SECONDS), "the patient waiter is woken by the fire");
        assertTrue(!failed.get(), "and never failed");

        // A wake-up taken after a fire is a fresh one.
        TaskSignals.Wakeup later = signals.take(7);
        CountDownLatch again = new CountDownLatch(1);
        later.onFire(again::countDown);
        signals.fire(7);
        assertTrue(again.await(5, TimeUnit.SECONDS));
    }
}
