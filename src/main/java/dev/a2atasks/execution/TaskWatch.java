package dev.a2atasks.execution;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.smallrye.mutiny.Uni;

/**
 * One waiter's watch on a task, for as long as it waits (a stream, a blocking SendMessage): one
 * registration with {@link TaskSignals}, however many reads and waits. {@link #arm} before each
 * read; {@link #next} then completes at the first change fired since, at once if one came during
 * the read, or after {@code max} (the fallback re-read).
 */
final class TaskWatch implements AutoCloseable {

    private final TaskSignals.Listener listener;
    private final AtomicBoolean fired = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicLong fires = new java.util.concurrent.atomic.AtomicLong();
    private final AtomicReference<CompletableFuture<Void>> waiting = new AtomicReference<>();

    TaskWatch(TaskSignals signals, long taskPk) {
        this.listener = signals.listen(taskPk, this::onFire);
    }

    private void onFire() {
        fires.incrementAndGet();
        fired.set(true);
        CompletableFuture<Void> wait = waiting.getAndSet(null);
        if (wait != null) {
            wait.complete(null);
        }
    }

    /** How many wake-ups this watch has had since it began. */
    long fires() {
        return fires.get();
    }

    /** Before a read: only changes fired from now on wake {@link #next}. */
    void arm() {
        fired.set(false);
    }

    /**
     * The first change fired since {@link #arm} (true), or {@code max} without one (false),
     * whichever comes first; never fails.
     */
    Uni<Boolean> next(Duration max) {
        CompletableFuture<Void> wait = new CompletableFuture<>();
        waiting.set(wait);
        if (fired.get()) {
            wait.complete(null);
        }
        return Uni.createFrom().completionStage(wait).map(signalled -> true).ifNoItem().after(max).recoverWithItem(false)
                .invoke(() -> waiting.compareAndSet(wait, null));
    }

    /** Wakes the waiter as a change of the task would (something it waits on besides the task happened). */
    void wake() {
        onFire();
    }

    @Override
    public void close() {
        listener.close();
        CompletableFuture<Void> wait = waiting.getAndSet(null);
        if (wait != null) {
            wait.complete(null);
        }
    }
}
