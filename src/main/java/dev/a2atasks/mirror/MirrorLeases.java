package dev.a2atasks.mirror;

import java.time.Duration;

import dev.a2atasks.db.Instance;
import dev.a2atasks.db.PooledStatements;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * One replica at a time syncs a mirror source: before a sync this replica takes the source's row
 * of {@code mirror_leases} (free, expired, or already its own), renews it while the sync runs,
 * and gives it up after. A replica that finds it held skips that round. Hand-written SQL: one
 * statement takes or refuses the lease atomically ({@code ON CONFLICT ... WHERE}), which a
 * Panache read-then-write cannot do without a lock wait. Blocking calls with a bound, for the
 * mirror's worker threads.
 */
@ApplicationScoped
public class MirrorLeases {

    /** $1: the source; $2: this replica; $3: for how many milliseconds (the database's clock). Answers a row when this replica holds the lease. */
    static final String TAKE = """
            INSERT INTO mirror_leases AS l (mirror, owner, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
            ON CONFLICT (mirror) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
            WHERE l.owner = EXCLUDED.owner OR l.expires_at < now()
            RETURNING l.owner""";
    static final String RELEASE = "DELETE FROM mirror_leases WHERE mirror = $1 AND owner = $2";
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Pool pool;
    private final String owner;

    @jakarta.inject.Inject
    MirrorLeases(Pool pool, Instance instance) {
        this(pool, instance.id());
    }

    /** Leases held in the name of {@code owner} (a replica). */
    MirrorLeases(Pool pool, String owner) {
        this.pool = pool;
        this.owner = owner;
    }

    /** Takes (or renews) the source's lease for {@code duration}; false when another replica holds it. */
    public boolean take(String source, Duration duration) {
        return PooledStatements.execute(pool, TAKE, Tuple.of(source, owner, duration.toMillis()))
                .await().atMost(WAIT).size() == 1;
    }

    /** Gives the source's lease up, if this replica holds it. */
    public void release(String source) {
        PooledStatements.execute(pool, RELEASE, Tuple.of(source, owner)).await().atMost(WAIT);
    }
}
