package dev.a2atasks.task.store;

import io.smallrye.mutiny.Uni;

/**
 * What an event owes beyond its own row, written in the event's transaction: the push package's
 * outbox rows, one per webhook the task has. Declared here and implemented there, so the event
 * log writes them without the store depending on push.
 */
public interface EventOutbox {

    /** Writes what the event just recorded for this locked task owes; answers how many rows. */
    Uni<Integer> enqueue(TaskEntity task, long eventSeq);

    /** The channel NOTIFY'd at commit when an event owed any rows. */
    String channel();
}
