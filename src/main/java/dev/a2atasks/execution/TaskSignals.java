package dev.a2atasks.execution;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * In-process wake-ups: "task N changed, read it again". One broadcaster per task: a waiter
 * {@link #listen}s before it reads the task, so a change committed in between is not missed, and
 * stays registered (once) until it stops waiting; the writer fires after its commit (and
 * {@link EventNotifications} fires for other replicas' commits). A task nobody waits on has no
 * entry, and an idle waiter costs one entry however long it waits. The signal carries nothing: the
 * database stays the only truth.
 */
@ApplicationScoped
public class TaskSignals {

    private final ConcurrentHashMap<Long, Set<Listener>> listeners = new ConcurrentHashMap<>();

    /** Calls {@code onFire} (on the firing thread) at every fire of this task until the listener is closed. */
    public Listener listen(long taskPk, Runnable onFire) {
        Listener listener = new Listener(taskPk, onFire);
        listeners.compute(taskPk, (k, set) -> {
            Set<Listener> current = set != null ? set : ConcurrentHashMap.newKeySet();
            current.add(listener);
            return current;
        });
        return listener;
    }

    public void fire(long taskPk) {
        Set<Listener> waiting = listeners.get(taskPk);
        if (waiting != null) {
            for (Listener listener : waiting) {
                listener.onFire.run();
            }
        }
    }

    /** How many tasks have a waiter in this process (a gauge for leaks: it falls back to 0 when nobody waits). */
    public int tasksWaitedOn() {
        return listeners.size();
    }

    /** One waiter's registration. */
    public final class Listener implements AutoCloseable {
        private final long taskPk;
        private final Runnable onFire;

        private Listener(long taskPk, Runnable onFire) {
            this.taskPk = taskPk;
            this.onFire = onFire;
        }

        /** Stops the calls; the task's entry goes with its last listener. Idempotent. */
        @Override
        public void close() {
            listeners.computeIfPresent(taskPk, (k, set) -> {
                set.remove(this);
                return set.isEmpty() ? null : set;
            });
        }
    }
}
