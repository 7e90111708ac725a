package dev.a2atasks.task.store;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Lease renewal for the runs going in this process, every third of the lease: one statement per
 * owner whose tasks run here, one after another on one connection, each its own transaction (so a
 * renewal never holds one owner's rows while it waits for another's, and on a store distributed by
 * owner each statement goes to the one node that holds them). Hand-written SQL (not a Panache update) because it must say which runs it renewed:
 * a run missing from the answer lost its task (canceled, or taken over after its lease expired)
 * and must stop. Rows are locked in key order, the order the sweep locks them in, so the two never
 * deadlock. Runs on a pool of its own (the {@code leases} datasource, one connection): a replica
 * whose main pool is taken by requests still renews in time, so its live runs are never failed by
 * another replica's sweep as if it had died. (A pool, not a session: the renewal thread has no
 * Vert.x context to open a session on.)
 */
@ApplicationScoped
public class RunLeases {

    /** $1: the new expiry; $2: task keys; $3: the run ids that must still own them; $4: the tasks' owner. */
    static final String RENEW = """
            UPDATE tasks SET lease_expires_at = $1
            WHERE owner = $4
              AND pk IN (SELECT pk FROM tasks
                         WHERE owner = $4 AND pk = ANY($2) AND run_id = ANY($3)
                         ORDER BY pk
                         FOR UPDATE)
            RETURNING run_id""";

    /** A run going in this process: the owner and key of its task, and its id. */
    public record Held(String owner, long taskPk, UUID runId) {
    }

    private final Pool pool;

    RunLeases(@ReactiveDataSource("leases") Pool pool) {
        this.pool = pool;
    }

    /** Extends the leases of these runs; answers the runs that still own their task. */
    public Uni<Set<UUID>> renew(Lease lease, List<Held> runs) {
        if (runs.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        Map<String, List<Held>> byOwner = runs.stream().collect(Collectors.groupingBy(Held::owner, TreeMap::new, Collectors.toList()));
        return pool.withConnection(connection -> {
            Uni<Set<UUID>> kept = Uni.createFrom().item(new HashSet<>());
            for (Map.Entry<String, List<Held>> owner : byOwner.entrySet()) {
                Tuple arguments = Tuple.of(lease.expiry(), owner.getValue().stream().map(Held::taskPk).toArray(Long[]::new),
                        owner.getValue().stream().map(Held::runId).toArray(UUID[]::new), owner.getKey());
                kept = kept.chain(set -> connection.preparedQuery(RENEW).execute(arguments).map(rows -> {
                    for (Row row : rows) {
                        set.add(row.getUUID(0));
                    }
                    return set;
                }));
            }
            return kept;
        });
    }
}
