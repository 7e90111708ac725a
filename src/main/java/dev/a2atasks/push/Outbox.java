package dev.a2atasks.push;

import static dev.a2atasks.push.OutboxStatements.CLAIM;
import static dev.a2atasks.push.OutboxStatements.DUE_OWNERS;
import static dev.a2atasks.push.OutboxStatements.FOLLOWERS_OF_OWNER;
import static dev.a2atasks.push.OutboxStatements.HEADS_OF_OWNER;
import static dev.a2atasks.push.OutboxStatements.LEASE_OF_OWNER;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jboss.logging.Logger;

import dev.a2atasks.db.DatabaseConfig;
import dev.a2atasks.db.PooledStatements;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * The delivery state of the outbox, in short transactions: claiming due rows (row locks taken
 * with SKIP LOCKED, so replicas never wait on each other and never claim the same row) and
 * recording how each attempt ended. Claims and deletes run on a pool of their own (the datasource
 * {@code push}, one connection): requests holding every connection of the main pool do not stop
 * deliveries. Recording a failed attempt goes through the entities, on the main pool.
 *
 * <p>Order: a row is claimable only while no earlier event of the same task is still owed to the
 * same registration, so each webhook receives a task's events in their order; a later event waits
 * while an earlier one is retried. A DEAD row no longer holds the ones after it back.
 */
@ApplicationScoped
public class Outbox {

    private static final Logger LOG = Logger.getLogger(Outbox.class);

    private final Pool pool;
    /**
     * Citus ({@code a2a.database.distribution=citus}): a statement that locks or changes outbox rows
     * names one owner, so it runs on the one node holding them (a lock across nodes is refused, and
     * a change across them would lock every shard). The claim then finds the owners with due rows
     * first, without a lock, and claims each one's in a transaction of its own.
     */
    private final boolean byOwner;

    Outbox(@ReactiveDataSource("push") Pool pool, DatabaseConfig database) {
        this.pool = pool;
        this.byOwner = database.distribution() == DatabaseConfig.Distribution.CITUS;
    }

    /** One event owed to a registration, as claimed: its row's key, attempts so far, and the event. */
    public record Claimed(PushDeliveryEntity.Key key, int attempts, OffsetDateTime eventCreatedAt, String payloadJson) {
    }

    /**
     * What one claim hands a worker's slot: a registration and the events owed to it that are due,
     * in their order (the first is the oldest one owed). They are sent one after the other; once
     * one fails, the rest are given back unattempted, so the webhook never sees them out of order.
     */
    public record Batch(PushConfigEntity config, List<Claimed> events) {
    }

    /** How an attempt ended; {@code RELEASED}: never made (an earlier event of its batch failed, or the worker stopped). */
    public enum Outcome {
        DELIVERED, FAILED, RELEASED
    }

    /** How one delivery ended, with the reason of a failure (never a secret). */
    public record Attempt(PushDeliveryEntity.Key key, Outcome outcome, String error) {
        static Attempt delivered(PushDeliveryEntity.Key key) {
            return new Attempt(key, Outcome.DELIVERED, null);
        }

        static Attempt failed(PushDeliveryEntity.Key key, String error) {
            return new Attempt(key, Outcome.FAILED, error);
        }

        static Attempt released(PushDeliveryEntity.Key key) {
            return new Attempt(key, Outcome.RELEASED, null);
        }
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

    /** The worker's delivery shares: what it has in flight, and whether it takes one more now. */
    public interface Shares {
        /** True to take a delivery for {@code tenant} and {@code url} (the share is then counted as used). */
        boolean take(String tenant, String url);

        /** What is in flight now, by tenant and by URL, and the share of each. */
        SharesInUse inUse();
    }

    /**
     * Leases up to {@code limit} registrations' due events to {@code leaseOwner} for {@code lease}
     * (a worker that dies mid-delivery leaves its rows to be claimed again once the lease ends):
     * for each, the oldest event it is owed and up to {@code perBatch - 1} after it that are due
     * too, sent by one slot in order. A registration is taken while its tenant and its URL have a
     * share left ({@code shares}; one share a batch), so a tenant with hundreds of due rows to dead
     * webhooks does not fill every claim. A row not taken is not leased.
     *
     * <p>Hand-written SQL (README, persistence): one statement ({@link OutboxStatements#CLAIM}), one
     * round trip, where the entities took a locking read and an UPDATE per row, on the path every push
     * delivery takes; on Citus, three statements in a transaction per owner. The rows of
     * {@code delivered} (held by {@code leaseOwner}) are deleted first, in the same statement, so
     * the events their registrations owe next are claimed by this claim. Pinned by
     * {@code OutboxPlanTest} and {@code CitusOutboxPlanTest}.
     */
    public Uni<List<Batch>> claim(String leaseOwner, int limit, int perBatch, Duration lease, Shares shares,
            List<PushDeliveryEntity.Key> delivered) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        SharesInUse use = shares.inUse();
        if (!byOwner) {
            Tuple arguments = Tuple.of(now);
            SharesInUse.asArrays(use.byTenant()).forEach(arguments::addValue);
            SharesInUse.asArrays(use.byUrl()).forEach(arguments::addValue);
            arguments.addValue(use.perTenant()).addValue(use.perUrl()).addValue((long) limit).addValue((long) perBatch - 1)
                    .addValue(leaseOwner).addValue(now.plus(lease));
            keyColumns(delivered).forEach(arguments::addValue);
            return pool.preparedQuery(CLAIM).execute(arguments).map(rows -> batches(rows, shares));
        }
        Tuple dueOwners = Tuple.of(now, use.fullTenants().toArray(String[]::new), (long) limit);
        return delivered(leaseOwner, delivered).chain(() -> pool.preparedQuery(DUE_OWNERS).execute(dueOwners)).chain(owners -> {
            Uni<List<Batch>> claimed = Uni.createFrom().item(new ArrayList<>());
            for (Row row : owners) {
                String owner = row.getString("owner");
                claimed = claimed.chain(batches -> batches.size() >= limit ? Uni.createFrom().item(batches)
                        : pool.withTransaction(connection -> claimOfOwner(connection, owner, leaseOwner, now, limit - batches.size(), perBatch,
                                lease, use, shares)).map(more -> {
                                    batches.addAll(more);
                                    return batches;
                                }));
            }
            return claimed;
        });
    }

    /**
     * The rows {@link OutboxStatements#CLAIM} leased, as batches (a registration's rows come together,
     * in order), each taking its share. The statement left room for each; were one refused all the
     * same, its rows stay leased, unsent, until the lease ends, and are claimed again then.
     */
    private static List<Batch> batches(Iterable<Row> rows, Shares shares) {
        Map<String, Batch> batches = new LinkedHashMap<>();
        Set<String> refused = new HashSet<>();
        for (Row row : rows) {
            String group = group(row);
            Batch batch = batches.get(group);
            if (batch == null && !refused.contains(group)) {
                PushConfigEntity config = config(row);
                if (shares.take(config.tenant, config.url)) {
                    batch = new Batch(config, new ArrayList<>());
                    batches.put(group, batch);
                } else {
                    refused.add(group);
                    LOG.warnf("Push claim: no share left for registration %s of task %s, claimed all the same (it waits for its lease)",
                            config.id, config.taskId);
                }
            }
            if (batch != null) {
                batch.events().add(claimed(row, row.getString("config_id")));
            }
        }
        return List.copyOf(batches.values());
    }

    /** {@link #claim} of one owner's rows, in one transaction (Citus). */
    private static Uni<List<Batch>> claimOfOwner(io.vertx.mutiny.sqlclient.SqlConnection connection, String owner, String leaseOwner,
            OffsetDateTime now, int limit, int perBatch, Duration lease, SharesInUse use, Shares shares) {
        Tuple headsArguments = Tuple.of(now, use.fullTenants().toArray(String[]::new), use.fullUrls().toArray(String[]::new), (long) limit);
        return connection.preparedQuery(HEADS_OF_OWNER).execute(headsArguments.addValue(owner))
                .chain(heads -> {
                    Map<String, Batch> batches = new LinkedHashMap<>();
                    for (Row row : heads) {
                        PushConfigEntity config = config(row);
                        if (shares.take(config.tenant, config.url)) {
                            List<Claimed> events = new ArrayList<>();
                            events.add(claimed(row, config.id));
                            batches.put(group(events.get(0).key()), new Batch(config, events));
                        }
                    }
                    if (batches.isEmpty()) {
                        return Uni.createFrom().item(List.<Batch>of());
                    }
                    List<PushDeliveryEntity.Key> headKeys = batches.values().stream().map(b -> b.events().get(0).key()).toList();
                    Uni<Void> followers = perBatch <= 1 ? Uni.createFrom().voidItem()
                            : connection.preparedQuery(FOLLOWERS_OF_OWNER)
                                    .execute(keys(headKeys, now, perBatch - 1).addValue(owner)).invoke(rows -> {
                                Set<String> stopped = new HashSet<>();
                                for (Row row : rows) {
                                    String group = group(row);
                                    // In order: the first row not free (a retry not yet due, another worker's lease)
                                    // ends its batch, as every row after it must wait for it.
                                    if (!row.getBoolean("free")) {
                                        stopped.add(group);
                                    } else if (!stopped.contains(group)) {
                                        batches.get(group).events().add(claimed(row, row.getString("config_id")));
                                    }
                                }
                            }).replaceWithVoid();
                    return followers.chain(() -> {
                        List<PushDeliveryEntity.Key> taken = batches.values().stream().flatMap(b -> b.events().stream())
                                .map(Claimed::key).toList();
                        return connection.preparedQuery(LEASE_OF_OWNER)
                                .execute(leaseArguments(leaseOwner, now.plus(lease), taken).addValue(owner));
                    }).replaceWith(() -> List.copyOf(batches.values()));
                });
    }

    /** Deletes delivered rows still held by {@code leaseOwner}, in one statement. */
    public Uni<Void> delivered(String leaseOwner, List<PushDeliveryEntity.Key> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        if (!byOwner) {
            return PooledStatements.execute(pool, OutboxStatements.DELIVERED, deliveredArguments(leaseOwner, keys)).replaceWithVoid();
        }
        Uni<Void> deleted = Uni.createFrom().voidItem();
        for (Map.Entry<String, List<PushDeliveryEntity.Key>> ofOwner : groupedByOwner(keys).entrySet()) {
            deleted = deleted.chain(() -> PooledStatements.execute(pool, OutboxStatements.DELIVERED_OF_OWNER,
                    deliveredArguments(leaseOwner, ofOwner.getValue()).addValue(ofOwner.getKey())).replaceWithVoid());
        }
        return deleted;
    }

    private static Tuple deliveredArguments(String leaseOwner, List<PushDeliveryEntity.Key> keys) {
        Tuple arguments = Tuple.of(leaseOwner);
        keyColumns(keys).forEach(arguments::addValue);
        return arguments;
    }

    private static Map<String, List<PushDeliveryEntity.Key>> groupedByOwner(List<PushDeliveryEntity.Key> keys) {
        Map<String, List<PushDeliveryEntity.Key>> byOwner = new java.util.TreeMap<>();
        keys.forEach(key -> byOwner.computeIfAbsent(key.owner, o -> new ArrayList<>()).add(key));
        return byOwner;
    }

    private static PushConfigEntity config(Row row) {
        PushConfigEntity config = new PushConfigEntity(); // a value read for one delivery, not a managed entity
        config.tenant = row.getString("tenant");
        config.owner = row.getString("owner");
        config.taskId = row.getString("task_id");
        config.id = row.getString("config_id");
        config.url = row.getString("url");
        config.authScheme = row.getString("auth_scheme");
        config.tokenSealed = bytes(row, "token_sealed");
        config.credentialsSealed = bytes(row, "credentials_sealed");
        return config;
    }

    private static byte[] bytes(Row row, String column) {
        io.vertx.mutiny.core.buffer.Buffer buffer = row.getBuffer(column);
        return buffer == null ? null : buffer.getBytes();
    }

    private static Claimed claimed(Row row, String configId) {
        return new Claimed(new PushDeliveryEntity.Key(row.getString("tenant"), row.getString("owner"), row.getString("task_id"), configId,
                row.getLong("event_seq")), row.getInteger("attempts"), row.getOffsetDateTime("event_created_at"), row.getString("payload"));
    }

    private static String group(PushDeliveryEntity.Key key) {
        return key.tenant + '\u0000' + key.owner + '\u0000' + key.taskId + '\u0000' + key.configId;
    }

    private static String group(Row row) {
        return row.getString("tenant") + '\u0000' + row.getString("owner") + '\u0000' + row.getString("task_id") + '\u0000'
                + row.getString("config_id");
    }

    private static Tuple keys(List<PushDeliveryEntity.Key> keys, OffsetDateTime now, int each) {
        Tuple arguments = Tuple.tuple();
        keyColumns(keys).forEach(arguments::addValue);
        return arguments.addValue(now).addValue((long) each);
    }

    private static Tuple leaseArguments(String leaseOwner, OffsetDateTime until, List<PushDeliveryEntity.Key> keys) {
        Tuple arguments = Tuple.of(leaseOwner, until);
        keyColumns(keys).forEach(arguments::addValue);
        return arguments;
    }

    /** The keys as five arrays, one a column, for {@code unnest}. */
    private static List<Object> keyColumns(List<PushDeliveryEntity.Key> keys) {
        int n = keys.size();
        String[] tenants = new String[n];
        String[] owners = new String[n];
        String[] tasks = new String[n];
        String[] configs = new String[n];
        Long[] seqs = new Long[n];
        for (int i = 0; i < n; i++) {
            PushDeliveryEntity.Key key = keys.get(i);
            tenants[i] = key.tenant;
            owners[i] = key.owner;
            tasks[i] = key.taskId;
            configs[i] = key.configId;
            seqs[i] = key.eventSeq;
        }
        return List.of(tenants, owners, tasks, configs, seqs);
    }

    /**
     * Records the attempts under {@code leaseOwner}'s lease that did not deliver (delivered ones go
     * by {@link #delivered}): a failed row is due again after {@code backoff} of its attempts, or
     * DEAD once it has had {@code maxAttempts} or is older than {@code maxAge}; a released row is
     * free again as it was, its attempts unchanged. A row whose lease passed to another worker
     * (this one was too slow) is left to that worker. Entities: failures are the rare case.
     */
    @WithTransaction
    public Uni<Recorded> recordUndelivered(String leaseOwner, List<Attempt> attempts, Backoff backoff, int maxAttempts, Duration maxAge) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        // One read of the rows this worker holds (a row whose lease passed to another worker is not among them),
        // locked: a row deleted meanwhile with its task or registration (OutboxVanishedRowTest) is then not read,
        // where a plain read would return it and its update find nothing and fail the whole round. On Citus, one
        // read per owner of the attempts (a locking read names one owner).
        Uni<List<PushDeliveryEntity>> locked;
        if (!byOwner) {
            locked = PushDeliveryEntity.<PushDeliveryEntity>find("leaseOwner = ?1 order by tenant, owner, taskId, configId, eventSeq",
                    leaseOwner).withLock(LockModeType.PESSIMISTIC_WRITE).list();
        } else {
            locked = Uni.createFrom().item(new ArrayList<>());
            for (String owner : groupedByOwner(attempts.stream().map(Attempt::key).toList()).keySet()) {
                locked = locked.chain(rows -> PushDeliveryEntity.<PushDeliveryEntity>find(
                        "owner = ?1 and leaseOwner = ?2 order by tenant, taskId, configId, eventSeq", owner, leaseOwner)
                        .withLock(LockModeType.PESSIMISTIC_WRITE).list().map(more -> {
                            rows.addAll(more);
                            return rows;
                        }));
            }
        }
        return locked.map(held -> {
            Map<PushDeliveryEntity.Key, PushDeliveryEntity> byKey = new HashMap<>();
            held.forEach(row -> byKey.put(new PushDeliveryEntity.Key(row.tenant, row.owner, row.taskId, row.configId, row.eventSeq), row));
            int retried = 0;
            OffsetDateTime soonest = null;
            List<PushDeliveryEntity> dead = new ArrayList<>();
            for (Attempt attempt : attempts) {
                PushDeliveryEntity row = byKey.get(attempt.key());
                if (row == null || attempt.outcome() == Outcome.DELIVERED) {
                    continue;
                }
                row.leaseOwner = null;
                row.leaseExpiresAt = null;
                if (attempt.outcome() == Outcome.RELEASED) {
                    continue;
                }
                row.attempts++;
                row.lastError = attempt.error();
                if (row.attempts >= maxAttempts || row.createdAt.plus(maxAge).isBefore(now)) {
                    row.state = PushDeliveryEntity.DEAD;
                    dead.add(row);
                } else {
                    row.nextAttemptAt = now.plus(backoff.delay(row.attempts));
                    retried++;
                    soonest = soonest == null || row.nextAttemptAt.isBefore(soonest) ? row.nextAttemptAt : soonest;
                }
            }
            return new Recorded(retried, soonest, dead);
        });
    }

    /** Gives up the leases of rows this worker claimed and never attempted (it is stopping). */
    @WithTransaction
    public Uni<Integer> release(String leaseOwner) {
        return PushDeliveryEntity.update("leaseOwner = null, leaseExpiresAt = null where leaseOwner = ?1", leaseOwner);
    }
}
