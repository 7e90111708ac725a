package dev.a2atasks.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The per-task broadcaster: every listener of a task hears every fire until it closes; a closed
 * listener hears nothing and disturbs no other; a task whose last listener closed leaves nothing
 * behind (idle waiters once piled a closure per poll on a shared future until the task changed).
 */
class TaskSignalsUnitTest {

    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration SAFETY_POLL = Duration.ofSeconds(30);

    @Test
    void everyListenerHearsEveryFireUntilItCloses() {
        TaskSignals signals = new TaskSignals(POLL, SAFETY_POLL);
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        TaskSignals.Listener a = signals.listen(7, first::incrementAndGet);
        TaskSignals.Listener b = signals.listen(7, second::incrementAndGet);
        signals.fire(7);
        signals.fire(8); // another task: nobody here
        a.close();
        signals.fire(7);
        assertEquals(1, first.get());
        assertEquals(2, second.get());
        b.close();
        b.close(); // idempotent
        signals.fire(7);
        assertEquals(2, second.get());
    }

    @Test
    void waitingLongCostsOneEntryAndNothingIsLeftAfterwards() {
        TaskSignals signals = new TaskSignals(POLL, SAFETY_POLL);
        TaskSignals.Listener[] waiters = new TaskSignals.Listener[100];
        for (int i = 0; i < waiters.length; i++) {
            waiters[i] = signals.listen(i % 3, () -> {
            });
        }
        assertEquals(3, signals.tasksWaitedOn());
        for (TaskSignals.Listener waiter : waiters) {
            waiter.close();
        }
        assertEquals(0, signals.tasksWaitedOn());
    }

    @Test
    void waitersPollOnlyWhileCommitsMayGoUnsignalledAndEveryChangeOfThatWakesThem() {
        TaskSignals signals = new TaskSignals(POLL, SAFETY_POLL);
        AtomicInteger woken = new AtomicInteger();
        TaskSignals.Listener one = signals.listen(1, woken::incrementAndGet);
        TaskSignals.Listener other = signals.listen(2, woken::incrementAndGet);
        assertFalse(signals.everyCommitSignalled(), "down until the LISTEN connection says otherwise");
        assertEquals(POLL, signals.reReadAfter());

        signals.everyCommitSignalled(true); // LISTEN came up: what it missed before is read again
        assertEquals(SAFETY_POLL, signals.reReadAfter());
        assertEquals(2, woken.get());
        signals.everyCommitSignalled(true); // no change, no wake-up
        assertEquals(2, woken.get());

        signals.everyCommitSignalled(false); // went down: back to polling, starting now
        assertEquals(POLL, signals.reReadAfter());
        assertEquals(4, woken.get());
        assertFalse(signals.everyCommitSignalled());
        one.close();
        other.close();
    }
}
