package dev.a2atasks.push;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.hibernate.LockMode;

import dev.a2atasks.task.store.PushConfigEntity;
import dev.a2atasks.task.store.PushDeliveryEntity;
import dev.a2atasks.task.store.TaskEventEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The delivery state of the outbox, in short transactions: claiming due rows (row locks taken
 * with SKIP LOCKED, so replicas never wait on each other and never claim the same row) and
 * recording how each attempt ended.
 *
 * <p>Order: a row is claimable only while no earlier event of the same task is still owed to the
 * same registration, so each webhook receives a task's events in their order; a later event waits
 * while an earlier one is retried. A DEAD row no longer holds the ones after it back.
 */
@ApplicationScoped
public class Outbox {

    /** A claimed delivery with what it needs to be made: its registration and its event. */
    public record Claimed(PushDeliveryEntity.Key key, int attempts, OffsetDateTime eventCreatedAt, PushConfigEntity config,
            String payloadJson) {
    }

    /** How one attempt ended: delivered, or failed with a reason (never a secret). */
    public record Attempt(PushDeliveryEntity.Key key, boolean delivered, String error) {
    }

    /** What recording a batch of attempts did, for the worker's logs and metrics. */
    public record Recorded(int delivered, int retried, OffsetDateTime soonestRetry, List<PushDeliveryEntity> dead) {
    }

    /**
     * Leases up to {@code limit} due rows to {@code leaseOwner} for {@code lease} (a worker that
     * dies mid-delivery leaves its rows to be claimed again once the lease ends).
     */
    @WithTransaction
    public Uni<List<Claimed>> claim(String leaseOwner, int limit, Duration lease) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return Panache.getSession().chain(session -> session.createSelectionQuery("""
                from PushDeliveryEntity o
                where o.state = 'PENDING' and o.nextAttemptAt <= :now
                  and (o.leaseExpiresAt is null or o.leaseExpiresAt < :now)
                  and not exists (from PushDeliveryEntity e
                                  where e.tenant = o.tenant and e.owner = o.owner and e.taskId = o.taskId
                                    and e.configId = o.configId and e.state = 'PENDING' and e.eventSeq < o.eventSeq)
                order by o.nextAttemptAt""", PushDeliveryEntity.class)
                .setParameter("now", now)
                .setLockMode(LockMode.UPGRADE_SKIPLOCKED)
                .setMaxResults(limit)
                .getResultList())
                .chain(rows -> {
                    List<Claimed> claimed = new ArrayList<>(rows.size());
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (PushDeliveryEntity row : rows) {
                        row.leaseOwner = leaseOwner;
                        row.leaseExpiresAt = now.plus(lease);
                        PushDeliveryEntity.Key key = new PushDeliveryEntity.Key(row.tenant, row.owner, row.taskId, row.configId, row.eventSeq);
                        chain = chain.chain(() -> PushConfigEntity.<PushConfigEntity>findById(
                                new PushConfigEntity.Key(row.tenant, row.owner, row.taskId, row.configId))
                                .chain(config -> TaskEventEntity.<TaskEventEntity>findById(eventKey(row)).invoke(event -> {
                                    // Both exist while the row does (foreign keys, cascading deletes).
                                    claimed.add(new Claimed(key, row.attempts, event.createdAt, config, event.payloadJson));
                                })).replaceWithVoid());
                    }
                    return chain.replaceWith(claimed);
                });
    }

    /**
     * Records attempts made under {@code leaseOwner}'s lease: a delivered row is deleted; a failed
     * one is due again after {@code backoff} of its attempts, or DEAD once it has had
     * {@code maxAttempts} or is older than {@code maxAge}. A row whose lease passed to another
     * worker (this one was too slow) is left to that worker.
     */
    @WithTransaction
    public Uni<Recorded> record(String leaseOwner, List<Attempt> attempts, Backoff backoff, int maxAttempts, Duration maxAge) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        int[] counts = new int[2];
        OffsetDateTime[] soonest = new OffsetDateTime[1];
        List<PushDeliveryEntity> dead = new ArrayList<>();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Attempt attempt : attempts) {
            chain = chain.chain(() -> PushDeliveryEntity.<PushDeliveryEntity>findById(attempt.key()).chain(row -> {
                if (row == null || !leaseOwner.equals(row.leaseOwner)) {
                    return Uni.createFrom().voidItem();
                }
                if (attempt.delivered()) {
                    counts[0]++;
                    return row.delete();
                }
                row.attempts++;
                row.lastError = attempt.error();
                row.leaseOwner = null;
                row.leaseExpiresAt = null;
                if (row.attempts >= maxAttempts || row.createdAt.plus(maxAge).isBefore(now)) {
                    row.state = PushDeliveryEntity.DEAD;
                    dead.add(row);
                } else {
                    row.nextAttemptAt = now.plus(backoff.delay(row.attempts));
                    counts[1]++;
                    soonest[0] = soonest[0] == null || row.nextAttemptAt.isBefore(soonest[0]) ? row.nextAttemptAt : soonest[0];
                }
                return Uni.createFrom().voidItem();
            }));
        }
        return chain.map(ignored -> new Recorded(counts[0], counts[1], soonest[0], dead));
    }

    /** Gives up the leases of rows this worker claimed and never attempted (it is stopping). */
    @WithTransaction
    public Uni<Integer> release(String leaseOwner) {
        return PushDeliveryEntity.update("leaseOwner = null, leaseExpiresAt = null where leaseOwner = ?1", leaseOwner);
    }

    private static TaskEventEntity.Key eventKey(PushDeliveryEntity row) {
        TaskEventEntity.Key key = new TaskEventEntity.Key();
        key.tenant = row.tenant;
        key.owner = row.owner;
        key.taskId = row.taskId;
        key.seq = row.eventSeq;
        return key;
    }
}
