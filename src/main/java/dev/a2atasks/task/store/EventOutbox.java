package dev.a2atasks.task.store;

import io.smallrye.mutiny.Uni;

/**
 * What an event owes beyond its own row, written in the event's transaction: the push package's
 * outbox rows, one per webhook the task has. Declared here and implemented there, so the event
 * log writes them without the store depending on push.
 */
public interface EventOutbox {

    /** The PostgreSQL channel on which a commit that owes deliveries is announced (no payload). */
    String CHANNEL = "a2a_push_outbox";

    /**
     * The outbox rows an event owes, as one INSERT: one row per registration the task has, due at
     * once. Written once for the two places that write them: {@link #enqueue}'s statement and the
     * run's one-statement writes ({@link RunStatements}), which splice it into their own. The
     * arguments are SQL expressions: the task's key, the event's number, the time, and what else
     * the SELECT reads ({@code from}, after the registrations) and requires ({@code and}).
     */
    static String owedRows(String tenant, String owner, String taskId, String eventSeq, String at, String from, String and) {
        return """
                INSERT INTO push_outbox (tenant, owner, task_id, config_id, event_seq, state, attempts, next_attempt_at, created_at)
                    SELECT c.tenant, c.owner, c.task_id, c.id, %s, 'PENDING', 0, %s, %s
                    FROM push_configs c%s
                    WHERE c.tenant = %s AND c.owner = %s AND c.task_id = %s%s""".formatted(eventSeq, at, at, from, tenant, owner, taskId, and);
    }

    /**
     * Writes what the event just recorded for this locked task owes, and has the deliverers told
     * at commit when it owes any. Called only for a task that has had a registration
     * ({@link TaskEntity#pushRegistered}).
     */
    Uni<Void> enqueue(TaskEntity task, long eventSeq);
}
