package dev.a2atasks.mirror;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/** The persisted high-water mark of each mirror, so a restarted mirror resumes instead of re-listing. */
@ApplicationScoped
public class MirrorMarks {

    private final Pool pool;

    MirrorMarks(Pool pool) {
        this.pool = pool;
    }

    /** The mark, or null before the first completed sync. */
    public Uni<Instant> get(String mirror) {
        return pool.preparedQuery("SELECT high_water FROM mirror_marks WHERE mirror = $1").execute(Tuple.of(mirror))
                .map(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        return null;
                    }
                    Row row = it.next();
                    return row.getOffsetDateTime(0).toInstant();
                });
    }

    /** Moves the mark forward (never back). */
    public Uni<Void> advance(String mirror, Instant highWater) {
        return pool.preparedQuery("""
                INSERT INTO mirror_marks (mirror, high_water) VALUES ($1, $2)
                ON CONFLICT (mirror) DO UPDATE
                SET high_water = greatest(mirror_marks.high_water, excluded.high_water), updated_at = now()""")
                .execute(Tuple.of(mirror, OffsetDateTime.ofInstant(highWater, ZoneOffset.UTC))).replaceWithVoid();
    }
}
