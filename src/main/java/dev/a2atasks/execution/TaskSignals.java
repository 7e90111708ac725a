package dev.a2atasks.execution;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * In-process wake-ups: "task N changed, read it again". A waiter takes a {@link Wakeup} before it
 * reads the task, so a change committed in between is not missed; the writer fires after its
 * commit (and {@link EventNotifications} fires for other replicas' commits). The signal carries
 * nothing: the database stays the only truth, and a waiter that misses a signal still re-reads
 * on its poll interval.
 */
@ApplicationScoped
public class TaskSignals {

    private final ConcurrentHashMap<Long, CompletableFuture<Void>> next = new ConcurrentHashMap<>();

    /** A wake-up at the next {@link #fire} for this task; every waiter of the task shares it. */
    public Wakeup take(long taskPk) {
        return new Wakeup(taskPk, next.compute(taskPk, (k, current) -> current == null || current.isDone()
                ? new CompletableFuture<>() : current));
    }

    public void fire(long taskPk) {
        CompletableFuture<Void> waiting = next.remove(taskPk);
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    /** One waiter's hold on the shared wake-up of a task. */
    public final class Wakeup {
        private final long taskPk;
        private final CompletableFuture<Void> shared;

        private Wakeup(long taskPk, CompletableFuture<Void> shared) {
            this.taskPk = taskPk;
            this.shared = shared;
        }

        /**
         * Completes at the fire, or after {@code max}. Waits on a copy: a waiter that gives up
         * cancels only its copy, never the wake-up the other waiters of the task share.
         */
        public Uni<Void> await(Duration max) {
            return Uni.createFrom().completionStage(shared.copy()).ifNoItem().after(max).recoverWithItem((Void) null);
        }

        /** Runs {@code action} at the fire (on the firing thread). */
        public void onFire(Runnable action) {
            shared.thenRun(action);
        }

        /** This waiter stops waiting: the shared wake-up is dropped when nobody else waits on it. */
        public void release() {
            if (shared.getNumberOfDependents() == 0) {
                next.remove(taskPk, shared);
            }
        }
    }
}
