package dev.a2atasks.push;

import org.jboss.logging.Logger;

import dev.a2atasks.task.store.PushConfigEntity;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * Key rotation for stored webhook secrets: registrations sealed with a key that is no longer the
 * ring's current one are opened and sealed again with the current key, a batch per transaction,
 * rows locked (a registration replaced meanwhile keeps its new secrets: the replacement waits for
 * the lock, or this batch reads it after). Once no row names an old key, that key can leave the
 * ring. The delivery worker runs it at start and then every {@code a2a.push.reseal-interval}.
 */
@ApplicationScoped
public class SecretRotation {

    private static final Logger LOG = Logger.getLogger(SecretRotation.class);

    private final SecretBox secrets;

    SecretRotation(SecretBox secrets) {
        this.secrets = secrets;
    }

    /** Re-seals up to {@code limit} registrations; returns how many it re-sealed (fewer than the limit: stop for now). */
    @WithTransaction
    public Uni<Integer> resealBatch(int limit) {
        String current = secrets.currentKeyId();
        return PushConfigEntity.<PushConfigEntity>find("sealedWith is not null and sealedWith <> ?1", current)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .page(0, limit).list()
                .map(rows -> {
                    int resealed = 0;
                    for (PushConfigEntity row : rows) {
                        try {
                            row.tokenSealed = reseal(row.tokenSealed, row, "token");
                            row.credentialsSealed = reseal(row.credentialsSealed, row, "credentials");
                            row.sealedWith = current;
                            resealed++;
                        } catch (SecretBox.Unreadable e) {
                            // Left as it is (and tried again next time): its key may be put back in the ring.
                            LOG.warnf("Push config %s of task %s not re-sealed: %s", row.id, row.taskId, e.getMessage());
                        }
                    }
                    if (resealed > 0) {
                        LOG.infof("Re-sealed the secrets of %d push notification config(s) with key '%s'", resealed, current);
                    }
                    return resealed;
                });
    }

    private byte[] reseal(byte[] sealed, PushConfigEntity row, String field) throws SecretBox.Unreadable {
        if (sealed == null) {
            return null;
        }
        SecretBox.Place place = PushConfigs.place(row, field);
        return secrets.seal(secrets.open(sealed, place), place);
    }
}
