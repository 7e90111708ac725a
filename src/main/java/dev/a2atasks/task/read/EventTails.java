package dev.a2atasks.task.read;

import java.util.ArrayList;
import java.util.List;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.PooledStatements;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A task's events from a number on, for its streams: one statement, a range scan of the events'
 * key (tenant, owner, task_id, seq) entered at the number and stopped after n rows. SQL rather
 * than the entity because a stream reads after every commit of the task it follows, on the path
 * of every event to its subscribers: through a session and the entity that read took 2 ms in the
 * service where PostgreSQL spends 0.2 ms on it (bench/run --latency-only, instrumented,
 * 2026-12-07: 2 of the 7 ms from an update's timestamp to its subscriber). The statement names
 * the caller's scope, so it reaches one node of a store distributed by owner.
 */
@ApplicationScoped
public class EventTails {

    /** $1-$3 the task's scoped key, $4 the first number, $5 how many at most. */
    static final String EVENTS = """
            SELECT seq, payload::text, input_seq
            FROM task_events
            WHERE tenant = $1 AND owner = $2 AND task_id = $3 AND seq >= $4
            ORDER BY seq
            LIMIT $5""";

    /**
     * One event: its number, the {@code StreamResponse} as stored (ProtoJSON) and the input the
     * run that wrote it answered (null: written by no run).
     */
    public record Event(long seq, String payloadJson, Long inputSeq) {
    }

    private final Pool pool;

    EventTails(Pool pool) {
        this.pool = pool;
    }

    /** Up to {@code limit} events of the caller's task from {@code fromSeq} on, in order. */
    public Uni<List<Event>> from(Caller caller, String taskId, long fromSeq, int limit) {
        return PooledStatements.execute(pool, EVENTS, Tuple.of(caller.tenant(), caller.subject(), taskId, fromSeq, limit))
                .map(rows -> {
                    List<Event> events = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        events.add(new Event(row.getLong(0), row.getString(1), row.getLong(2)));
                    }
                    return events;
                });
    }
}
