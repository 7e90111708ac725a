package dev.a2atasks.task.read;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.PooledStatements;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowIterator;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Where a task's work stands, for a blocking SendMessage's wait: one statement, two columns of the
 * task found by its scoped unique key. SQL rather than an entity projection because the waiter
 * reads it when the wait starts and again after each change it cannot account for, on the path of
 * every blocking send; a read through a Hibernate Reactive session costs the service several times
 * what PostgreSQL spends on it (as {@link EventTails} measured for the streams' read). The
 * statement names the caller's scope, so it reaches one node of a store distributed by owner.
 */
@ApplicationScoped
public class TaskProgress {

    /** $1-$3 the task's scoped key. */
    static final String PROGRESS = """
            SELECT state, run_input_seq
            FROM tasks
            WHERE tenant = $1 AND owner = $2 AND id = $3""";

    /** The task's state, and the history seq of the message its current (or last) run answers (null: none yet). */
    public record Progress(String state, Long runInputSeq) {
    }

    private final Pool pool;

    TaskProgress(Pool pool) {
        this.pool = pool;
    }

    /** The caller's task's {@link Progress}, or null when the caller has no such task. */
    public Uni<Progress> of(Caller caller, String taskId) {
        return PooledStatements.execute(pool, PROGRESS, Tuple.of(caller.tenant(), caller.subject(), taskId)).map(rows -> {
            RowIterator<Row> found = rows.iterator();
            if (!found.hasNext()) {
                return null;
            }
            Row row = found.next();
            return new Progress(row.getString(0), row.getLong(1));
        });
    }
}
