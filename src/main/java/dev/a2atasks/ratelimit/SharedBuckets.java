package dev.a2atasks.ratelimit;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import dev.a2atasks.db.DatabaseAvailability;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * The shared buckets in PostgreSQL ({@code rate_limit_buckets}): a lease is one transaction that
 * locks the caller's row, refills it for the time since its last lease, and takes what it can.
 * Replicas stamp the row with their own clock; a clock behind the row's stamp refills nothing.
 */
@ApplicationScoped
public class SharedBuckets {

    /** Takes up to {@code want} tokens; a caller's first lease makes its row, full. */
    public Uni<LeasedLimiter.Lease> lease(String tenant, String subject, RequestClass requestClass, RateLimiter.Limit limit, int want) {
        RateBucketEntity.Key key = new RateBucketEntity.Key(tenant, subject, requestClass.key());
        return Panache.withTransaction(() -> RateBucketEntity.<RateBucketEntity>findById(key, LockModeType.PESSIMISTIC_WRITE)
                .chain(found -> {
                    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                    RateBucketEntity row = found;
                    if (row == null) {
                        row = new RateBucketEntity();
                        row.tenant = tenant;
                        row.owner = subject;
                        row.requestClass = requestClass.key();
                        row.tokens = limit.burst();
                    } else {
                        long elapsedNanos = Math.max(0, Duration.between(row.updatedAt, now).toNanos());
                        row.tokens = Math.min(limit.burst(), row.tokens + elapsedNanos / 1e9 * limit.perSecond());
                    }
                    int granted = (int) Math.min(want, Math.floor(row.tokens));
                    row.tokens -= granted;
                    row.updatedAt = now;
                    long wait = granted > 0 ? 0 : (long) Math.ceil((1 - row.tokens) / limit.perSecond() * 1e9);
                    LeasedLimiter.Lease lease = new LeasedLimiter.Lease(granted, wait);
                    return found == null ? row.persist().replaceWith(lease) : Uni.createFrom().item(lease);
                }))
                // Two replicas making the same caller's row at once: one insert loses; the retry finds the row.
                .onFailure(failure -> !DatabaseAvailability.isOutage(failure)).retry().atMost(1);
    }

    /** Forgets rows idle for longer than {@code idle} (by then every bucket is full again). */
    public Uni<Long> forgetIdle(Duration idle) {
        OffsetDateTime before = OffsetDateTime.now(ZoneOffset.UTC).minus(idle);
        return Panache.withTransaction(() -> RateBucketEntity.delete("updatedAt < ?1", before));
    }
}
