package dev.a2atasks.push;

import org.jboss.logging.Logger;

import dev.a2atasks.jobs.PeriodicJob;
import dev.a2atasks.db.DatabaseAvailability;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.event.Observes;

import io.quarkus.hibernate.reactive.panache.common.ProjectedFieldName;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * Key rotation for stored webhook secrets: registrations sealed with a key that is no longer the
 * ring's current one are opened and sealed again with the current key, a batch per transaction,
 * in key order from where the last batch ended, rows locked (a registration replaced meanwhile
 * keeps its new secrets: the replacement waits for the lock, or this batch reads it after). A row
 * it cannot open is passed over and tried again at the next pass, never holding up the rows after
 * it. Once no row names an old key, that key can leave the ring. Runs on its own thread, at start
 * and then every {@code a2a.push.reseal-interval}, so a long pass never delays a delivery.
 */
@ApplicationScoped
public class SecretRotation {

    private static final Logger LOG = Logger.getLogger(SecretRotation.class);
    private static final int BATCH = 100;

    private final SecretBox secrets;
    private final PushSettings settings;
    private PeriodicJob timer;

    SecretRotation(SecretBox secrets, PushSettings settings) {
        this.secrets = secrets;
        this.settings = settings;
    }

    private static final java.time.Duration FIRST_PASS_AFTER = java.time.Duration.ofSeconds(10);

    void start(@Observes StartupEvent ignored) {
        if (!settings.enabled()) {
            return;
        }
        // The first pass comes shortly after start-up, not during it (it would take a core from it).
        java.time.Duration first = settings.resealInterval().compareTo(FIRST_PASS_AFTER) < 0 ? settings.resealInterval() : FIRST_PASS_AFTER;
        timer = PeriodicJob.start("a2a-push-reseal", first, settings.resealInterval(), this::pass);
    }

    void stop(@Observes ShutdownEvent ignored) {
        if (timer != null) {
            timer.stop(java.time.Duration.ZERO); // a pass stopped mid-way is resumed by the next start's
        }
    }

    /** One pass over every registration sealed with an old key; answers how many it re-sealed. */
    public int pass() {
        int resealed = 0;
        try {
            PushConfigEntity.Key after = null;
            Batch batch;
            do {
                PushConfigEntity.Key from = after;
                batch = VertxContextSupport.subscribeAndAwait(() -> resealBatch(from, BATCH));
                resealed += batch.resealed();
                after = batch.last();
            } while (batch.examined() == BATCH);
        } catch (Throwable e) {
            if (DatabaseAvailability.isOutage(e)) {
                LOG.debugf("Secret re-seal pass skipped: database unreachable");
            } else {
                LOG.warnf("Secret re-seal pass failed (the next one resumes it): %s", e.toString());
            }
        }
        return resealed;
    }

    /** What one batch did: rows examined (fewer than asked: the pass is over), re-sealed, and the last key it read. */
    public record Batch(int examined, int resealed, PushConfigEntity.Key last) {
    }

    /**
     * Re-seals up to {@code limit} registrations after {@code after} in key order (null: from the
     * first), among those sealed with an old key. They are found without a lock, then locked and
     * read again one by one by their key: a store distributed by owner (Citus) cannot lock rows
     * from a statement that spans its nodes, and each of these names the one node holding its row.
     * A row replaced or deleted in between is read as it now is (and passed over when it no longer
     * names an old key).
     */
    @WithTransaction
    public Uni<Batch> resealBatch(PushConfigEntity.Key after, int limit) {
        String current = secrets.currentKeyId();
        String keys = "select tenant, owner, taskId, id from PushConfigEntity where sealedWith is not null and sealedWith <> ?1";
        var query = after == null
                ? PushConfigEntity.find(keys + " order by tenant, owner, taskId, id", current)
                : PushConfigEntity.find(keys + " and (tenant > ?2 or (tenant = ?2 and (owner > ?3 or (owner = ?3 and (taskId > ?4"
                        + " or (taskId = ?4 and id > ?5))))))"
                        + " order by tenant, owner, taskId, id", current, after.tenant, after.owner, after.taskId, after.id);
        return query.page(0, limit).project(Unsealed.class).list().chain(candidates -> {
            Uni<Integer> resealed = Uni.createFrom().item(0);
            for (Unsealed candidate : candidates) {
                resealed = resealed.chain(count -> PushConfigEntity.<PushConfigEntity>find(
                        "tenant = ?1 and owner = ?2 and taskId = ?3 and id = ?4 and sealedWith is not null and sealedWith <> ?5",
                        candidate.tenant(), candidate.owner(), candidate.taskId(), candidate.id(), current)
                        .withLock(LockModeType.PESSIMISTIC_WRITE).firstResult()
                        .map(row -> row != null && reseal(row, current) ? count + 1 : count));
            }
            return resealed.map(count -> {
                if (count > 0) {
                    LOG.infof("Re-sealed the secrets of %d push notification config(s) with key '%s'", count, current);
                }
                Unsealed last = candidates.isEmpty() ? null : candidates.get(candidates.size() - 1);
                return new Batch(candidates.size(), count, last == null ? null
                        : new PushConfigEntity.Key(last.tenant(), last.owner(), last.taskId(), last.id()));
            });
        });
    }

    /** A registration that named an old key when the batch looked: its key, to lock it by. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record Unsealed(@ProjectedFieldName("tenant") String tenant, @ProjectedFieldName("owner") String owner,
            @ProjectedFieldName("taskId") String taskId, @ProjectedFieldName("id") String id) {
    }

    /** Seals a locked row's secrets again with the current key; false (the row left as it is) when one cannot be opened. */
    private boolean reseal(PushConfigEntity row, String current) {
        try {
            row.tokenSealed = reseal(row.tokenSealed, row, "token");
            row.credentialsSealed = reseal(row.credentialsSealed, row, "credentials");
            row.sealedWith = current;
            return true;
        } catch (SecretBox.Unreadable e) {
            // Left as it is (and tried again next pass): its key may be put back in the ring.
            LOG.warnf("Push config %s of task %s not re-sealed: %s", row.id, row.taskId, e.getMessage());
            return false;
        }
    }

    private byte[] reseal(byte[] sealed, PushConfigEntity row, String field) throws SecretBox.Unreadable {
        if (sealed == null) {
            return null;
        }
        SecretBox.Place place = PushConfigs.place(row, field);
        return secrets.seal(secrets.open(sealed, place), place);
    }
}
