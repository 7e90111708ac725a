package dev.a2atasks.mirror;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/** The persisted high-water mark of each mirror, so a restarted mirror resumes instead of re-listing. */
@ApplicationScoped
public class MirrorMarks {

    /** The mark, or null before the first completed sync. */
    @WithSession
    public Uni<Instant> get(String mirror) {
        return MirrorMarkEntity.<MirrorMarkEntity>findById(mirror)
                .map(mark -> mark == null ? null : mark.highWater.toInstant());
    }

    /**
     * Moves the mark forward, never back: the row is locked, so two replicas syncing the same
     * source keep the later mark. (Two first syncs racing to insert: one fails on the key and
     * its next run, finding the row, advances it.)
     */
    @WithTransaction
    public Uni<Void> advance(String mirror, Instant highWater) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        OffsetDateTime mark = OffsetDateTime.ofInstant(highWater, ZoneOffset.UTC);
        return MirrorMarkEntity.<MirrorMarkEntity>findById(mirror, LockModeType.PESSIMISTIC_WRITE).chain(row -> {
            if (row == null) {
                MirrorMarkEntity created = new MirrorMarkEntity();
                created.mirror = mirror;
                created.highWater = mark;
                created.updatedAt = now;
                return created.persist().replaceWithVoid();
            }
            if (mark.isAfter(row.highWater)) {
                row.highWater = mark;
            }
            row.updatedAt = now;
            return Uni.createFrom().voidItem();
        });
    }
}
