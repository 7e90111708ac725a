package dev.a2atasks.task.store;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.a2atasks.db.PooledStatements;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Lease renewal for the runs going in this process: one statement for all of them, every third
 * of the lease. Hand-written SQL (not a Panache update) because it must say which runs it renewed:
 * a run missing from the answer lost its task (canceled, or taken over after its lease expired)
 * and must stop. Rows are locked in key order, the order the sweep locks them in, so the two never
 * deadlock. Runs on a pool of its own (the {@code leases} datasource, one connection): a replica
 * whose main pool is taken by requests still renews in time, so its live runs are never failed by
 * another replica's sweep as if it had died. (A pool, not a session: the renewal thread has no
 * Vert.x context to open a session on.)
 */
@ApplicationScoped
public class RunLeases {

    /** $1: the new expiry; $2: task keys; $3: the run ids that must still own them. */
    static final String RENEW = """
            UPDATE tasks SET lease_expires_at = $1
            WHERE pk IN (SELECT pk FROM tasks
                         WHERE pk = ANY($2) AND run_id = ANY($3)
                         ORDER BY pk
                         FOR UPDATE)
            RETURNING run_id""";

    private final Pool pool;

    RunLeases(@ReactiveDataSource("leases") Pool pool) {
        this.pool = pool;
    }

    /** Extends the leases of these runs (task key and run id, pairwise); answers the runs that still own their task. */
    public Uni<Set<UUID>> renew(Lease lease, List<Long> taskPks, List<UUID> runIds) {
        if (taskPks.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return PooledStatements.execute(pool, RENEW, Tuple.of(lease.expiry(), taskPks.toArray(Long[]::new), runIds.toArray(UUID[]::new)))
                .map(rows -> {
                    Set<UUID> kept = new HashSet<>();
                    for (Row row : rows) {
                        kept.add(row.getUUID(0));
                    }
                    return kept;
                });
    }
}
