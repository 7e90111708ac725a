package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.a2atasks.support.Db;
import dev.a2atasks.support.HeldConnections;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/**
 * Lease renewal never waits for the pool requests use: with every connection of that pool taken
 * (a replica flooded with requests), the runs' leases are still renewed at once, on the renewal's
 * own connection. Without it, the renewal would wait in the request pool's queue while the leases
 * ran out, and another replica's sweep would fail live runs.
 */
@QuarkusTest
class LeaseRenewalPoolTest {

    private static final String TENANT = "LeaseRenewalPoolTest";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Pool requests;

    @Inject
    RunLeases leases;

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size")
    int poolSize;

    @Test
    void leasesAreRenewedWhileEveryRequestConnectionIsTaken() {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        long pk = db.insertTask(TENANT, "o", "running", "c", "TASK_STATE_WORKING", Instant.now());
        UUID run = UUID.randomUUID();
        db.execute("UPDATE tasks SET run_id = '" + run + "', lease_owner = 'this-replica', lease_expires_at = now() + interval '5 seconds'"
                + " WHERE pk = " + pk);
        try (HeldConnections taken = HeldConnections.all(requests, poolSize)) {
            Set<UUID> kept = leases.renew(new Lease("this-replica", Duration.ofMinutes(5)), List.of(new RunLeases.Held("o", pk, run)))
                    .await().atMost(Duration.ofSeconds(5));
            assertEquals(Set.of(run), kept);
            assertTrue(db.queryLong("SELECT count(*) FROM tasks WHERE pk = " + pk
                    + " AND lease_expires_at > now() + interval '4 minutes'") == 1, "the lease was extended");
        } finally {
            db.clearTenant(TENANT);
        }
    }
}
