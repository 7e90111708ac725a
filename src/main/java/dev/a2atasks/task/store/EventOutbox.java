package dev.a2atasks.task.store;

import io.smallrye.mutiny.Uni;

/**
 * What an event owes beyond its own row, written in the event's transaction: the push package's
 * outbox rows, one per webhook the task has. Declared here and implemented there, so the event
 * log writes them without the store depending on push.
 */
public interface EventOutbox {

    /**
     * Writes what the event just recorded for this locked task owes, and has the deliverers told
     * at commit when it owes any. Called only for a task that has had a registration
     * ({@link TaskEntity#pushRegistered}).
     */
    Uni<Void> enqueue(TaskEntity task, long eventSeq);
}
