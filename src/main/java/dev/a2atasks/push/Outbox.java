package dev.a2atasks.push;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hibernate.LockMode;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
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
    public record Recorded(int retried, OffsetDateTime soonestRetry, List<PushDeliveryEntity> dead) {
    }

    /**
     * Whether any row is due now: a plain read, no transaction, so an idle worker's poll costs one
     * index probe and opens no transaction (nor logs a failed one when the database goes away).
     */
    @WithSession
    public Uni<Boolean> anyDue() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return Panache.getSession().chain(session -> session.createSelectionQuery(
                "select 1 from PushDeliveryEntity o where o.state = 'PENDING' and o.nextAttemptAt <= :now", Integer.class)
                .setParameter("now", now)
                .setMaxResults(1)
                .getResultList())
                .map(rows -> !rows.isEmpty());
    }

    /** Decides, row by row, whether the worker takes a claimable delivery now (its tenant's and its URL's shares). */
    @FunctionalInterface
    public interface Shares {
        /** True to take it (the share is then counted as used); false leaves the row for a later round. */
        boolean take(String tenant, String url);
    }

    /**
     * Leases up to {@code limit} due rows to {@code leaseOwner} for {@code lease} (a worker that
     * dies mid-delivery leaves its rows to be claimed again once the lease ends). Rows of
     * {@code fullTenants} and {@code fullUrls} (whose shares the worker has all in flight) are
     * not looked at, so a tenant with hundreds of due rows to dead webhooks does not fill every
     * claim; of the rest, {@code shares} decides which are taken. A row not taken is not leased.
     */
    @WithTransaction
    public Uni<List<Claimed>> claim(String leaseOwner, int limit, Duration lease, Collection<String> fullTenants,
            Collection<String> fullUrls, Shares shares) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        // One statement: the due rows with their registration and event. Locking the three rows
        // (FOR NO KEY UPDATE) blocks neither the foreign-key checks of new events nor readers; a row
        // whose event another worker holds for another registration is skipped and taken next round.
        String query = """
                select o, c, e.payloadJson, e.createdAt
                from PushDeliveryEntity o
                  join PushConfigEntity c on c.tenant = o.tenant and c.owner = o.owner and c.taskId = o.taskId and c.id = o.configId
                  join TaskEventEntity e on e.tenant = o.tenant and e.owner = o.owner and e.taskId = o.taskId and e.seq = o.eventSeq
                where o.state = 'PENDING' and o.nextAttemptAt <= :now
                  and (o.leaseExpiresAt is null or o.leaseExpiresAt < :now)
                  and not exists (from PushDeliveryEntity p
                                  where p.tenant = o.tenant and p.owner = o.owner and p.taskId = o.taskId
                                    and p.configId = o.configId and p.state = 'PENDING' and p.eventSeq < o.eventSeq)"""
                + (fullTenants.isEmpty() ? "" : "\n  and o.tenant not in :fullTenants")
                + (fullUrls.isEmpty() ? "" : "\n  and c.url not in :fullUrls")
                + "\norder by o.nextAttemptAt";
        return Panache.getSession().chain(session -> {
            var select = session.createSelectionQuery(query, Object[].class)
                    .setParameter("now", now);
            if (!fullTenants.isEmpty()) {
                select.setParameter("fullTenants", fullTenants);
            }
            if (!fullUrls.isEmpty()) {
                select.setParameter("fullUrls", fullUrls);
            }
            return select.setLockMode(LockMode.UPGRADE_SKIPLOCKED)
                    .setMaxResults(limit)
                    .getResultList();
        }).map(rows -> {
            List<Claimed> claimed = new ArrayList<>(rows.size());
            for (Object[] row : rows) {
                PushDeliveryEntity delivery = (PushDeliveryEntity) row[0];
                PushConfigEntity config = (PushConfigEntity) row[1];
                if (!shares.take(delivery.tenant, config.url)) {
                    continue;
                }
                delivery.leaseOwner = leaseOwner;
                delivery.leaseExpiresAt = now.plus(lease);
                claimed.add(new Claimed(new PushDeliveryEntity.Key(delivery.tenant, delivery.owner, delivery.taskId, delivery.configId,
                        delivery.eventSeq), delivery.attempts, (OffsetDateTime) row[3], config, (String) row[2]));
            }
            return claimed;
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
        // One read of the rows this worker holds (a row whose lease passed to another worker is not among them).
        return PushDeliveryEntity.<PushDeliveryEntity>list("leaseOwner = ?1", leaseOwner).chain(held -> {
            Map<PushDeliveryEntity.Key, PushDeliveryEntity> byKey = new HashMap<>();
            held.forEach(row -> byKey.put(new PushDeliveryEntity.Key(row.tenant, row.owner, row.taskId, row.configId, row.eventSeq), row));
            int retried = 0;
            OffsetDateTime soonest = null;
            List<PushDeliveryEntity> dead = new ArrayList<>();
            List<PushDeliveryEntity> done = new ArrayList<>();
            for (Attempt attempt : attempts) {
                PushDeliveryEntity row = byKey.get(attempt.key());
                if (row == null) {
                    continue;
                }
                if (attempt.delivered()) {
                    done.add(row);
                    continue;
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
                    retried++;
                    soonest = soonest == null || row.nextAttemptAt.isBefore(soonest) ? row.nextAttemptAt : soonest;
                }
            }
            Uni<Void> deletes = Uni.createFrom().voidItem();
            for (PushDeliveryEntity row : done) {
                deletes = deletes.chain(row::delete);
            }
            Recorded recorded = new Recorded(retried, soonest, dead);
            return deletes.replaceWith(recorded);
        });
    }

    /** Gives up the leases of rows this worker claimed and never attempted (it is stopping). */
    @WithTransaction
    public Uni<Integer> release(String leaseOwner) {
        return PushDeliveryEntity.update("leaseOwner = null, leaseExpiresAt = null where leaseOwner = ?1", leaseOwner);
    }
}
