package dev.a2atasks.execution;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * In-process wake-ups: "task N changed, read it again". A waiter takes {@link #next} before it
 * reads the task, so a change committed in between is not missed; the writer fires after its
 * commit. The signal carries nothing: the database stays the only truth, and a waiter that misses
 * a signal (a change made by another replica) still re-reads on its poll interval.
 */
@ApplicationScoped
public class TaskSignals {

    private final ConcurrentHashMap<Long, CompletableFuture<Void>> next = new ConcurrentHashMap<>();

    /** Completes at the next {@link #fire} for this task. */
    public CompletableFuture<Void> next(long taskPk) {
        return next.computeIfAbsent(taskPk, k -> new CompletableFuture<>());
    }

    public void fire(long taskPk) {
        CompletableFuture<Void> waiting = next.remove(taskPk);
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    /** A waiter that stops waiting drops the future it took, unless another waiter shares it and a fire is due anyway. */
    public void release(long taskPk, CompletableFuture<Void> taken) {
        if (taken.getNumberOfDependents() == 0) {
            next.remove(taskPk, taken);
        }
    }
}
