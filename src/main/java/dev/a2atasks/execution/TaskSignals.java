package dev.a2atasks.execution;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * In-process wake-ups: "task N changed, read it again". One broadcaster per task: a waiter
 * {@link #listen}s before it reads the task, so a change committed in between is not missed, and
 * stays registered (once) until it stops waiting; the writer fires after its commit (and
 * {@link EventNotifications} fires for other replicas' commits). A task nobody waits on has no
 * entry, and an idle waiter costs one entry however long it waits. The signal carries nothing: the
 * database stays the only truth.
 *
 * <p>How long a waiter may go without a signal before it re-reads ({@link #reReadAfter}) depends
 * on whether every commit reaches this process: while the LISTEN connection is up, a signal comes
 * for each, and a waiter re-reads only every {@code a2a.stream.safety-poll-interval} (a guard
 * against a connection that died without closing); while it is down, every
 * {@code a2a.stream.poll-interval}. Both changes of that state wake every waiter: one that went
 * down may have missed a commit, and one that came back may have missed some while it was down.
 */
@ApplicationScoped
public class TaskSignals {

    private final ConcurrentHashMap<Long, Set<Listener>> listeners = new ConcurrentHashMap<>();
    private final Duration poll;
    private final Duration safetyPoll;
    private volatile boolean everyCommitSignalled;

    TaskSignals(@ConfigProperty(name = "a2a.stream.poll-interval", defaultValue = "1s") Duration poll,
            @ConfigProperty(name = "a2a.stream.safety-poll-interval", defaultValue = "30s") Duration safetyPoll) {
        this.poll = poll;
        this.safetyPoll = safetyPoll;
    }

    /** The longest a waiter goes without a signal before it re-reads its task. */
    public Duration reReadAfter() {
        return everyCommitSignalled ? safetyPoll : poll;
    }

    /** Whether every commit, of any replica, is signalled here now (the LISTEN connection is up). */
    public boolean everyCommitSignalled() {
        return everyCommitSignalled;
    }

    /** The LISTEN connection came up or went down: every waiter re-reads, then waits as {@link #reReadAfter} now says. */
    void everyCommitSignalled(boolean now) {
        if (everyCommitSignalled != now) {
            everyCommitSignalled = now;
            listeners.keySet().forEach(this::fire);
        }
    }

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
