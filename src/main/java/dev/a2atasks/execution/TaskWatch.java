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
    private final AtomicReference<CompletableFuture<Void>> waiting = new AtomicReference<>();

    TaskWatch(TaskSignals signals, long taskPk) {
        this.listener = signals.listen(taskPk, this::onFire);
    }

    private void onFire() {
        fired.set(true);
        CompletableFuture<Void> wait = waiting.getAndSet(null);
        if (wait != null) {
            wait.complete(null);
        }
    }

    /** Before a read: only changes fired from now on wake {@link #next}. */
    void arm() {
        fired.set(false);
    }

    /** The first change fired since {@link #arm}, or {@code max}, whichever comes first; never fails. */
    Uni<Void> next(Duration max) {
        CompletableFuture<Void> wait = new CompletableFuture<>();
        waiting.set(wait);
        if (fired.get()) {
            wait.complete(null);
        }
        return Uni.createFrom().completionStage(wait).ifNoItem().after(max).recoverWithItem((Void) null)
                .invoke(() -> waiting.compareAndSet(wait, null));
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
