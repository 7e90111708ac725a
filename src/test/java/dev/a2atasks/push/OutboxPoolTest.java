package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.a2atasks.support.Db;
import dev.a2atasks.support.HeldConnections;
import dev.a2atasks.support.PushOff;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/**
 * The push worker's claims and deletes never wait for the pool requests use: with every
 * connection of that pool taken (a burst of agent runs, a flood of sends), a due delivery is still
 * claimed and its row deleted at once, on the outbox's own connection. On the request pool each
 * claim queued behind the burst (a quarter of a second in bench table i), and the worker, one
 * round at a time, sent nothing meanwhile. The service's own worker is off in this profile, so
 * the row is this test's to claim. And that pool answers on the worker's own event loop
 * ({@link DeliveryLoop}), never on the service's, where each answer waited behind request work.
 */
@QuarkusTest
@TestProfile(PushOff.class)
class OutboxPoolTest {

    private static final String TENANT = "OutboxPoolTest";
    private static final String WORKER = "OutboxPoolTest-worker";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Pool requests;

    @Inject
    Outbox outbox;

    @Inject
    DeliveryLoop loop;

    @Inject
    io.vertx.core.Vertx serviceVertx;

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size")
    int poolSize;

    @Test
    void aDueDeliveryIsClaimedAndDeletedWhileEveryRequestConnectionIsTaken() {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        db.insertOwedDelivery(TENANT, "alice", null);
        // Due since 2000, before any row another test class left owed: a claim of one registration takes this one.
        db.execute("UPDATE push_outbox SET next_attempt_at = timestamptz '2000-01-01' WHERE tenant = '" + TENANT + "'");
        try (HeldConnections taken = HeldConnections.all(requests, poolSize)) {
            AtomicReference<io.vertx.core.Vertx> answeredOn = new AtomicReference<>();
            List<Outbox.Batch> claimed = outbox.claim(WORKER, 1, 16, Duration.ofMinutes(1), new DeliveryShares(8, 8), List.of())
                    .invoke(() -> answeredOn.set(io.vertx.core.Vertx.currentContext().owner()))
                    .await().atMost(Duration.ofSeconds(5));
            assertSame(loop.vertx(), answeredOn.get(), "the claim answers on the delivery loop");
            assertNotSame(serviceVertx, answeredOn.get());
            assertEquals(1, claimed.size());
            assertEquals(List.of(new PushDeliveryEntity.Key(TENANT, "alice", "t1", "hook", 0L)),
                    claimed.get(0).events().stream().map(Outbox.Claimed::key).toList());
            assertEquals(1, db.queryLong("SELECT count(*) FROM push_outbox WHERE tenant = '" + TENANT + "' AND lease_owner = '"
                    + WORKER + "'"), "the row is leased to the worker");

            outbox.delivered(WORKER, List.of(claimed.get(0).events().get(0).key())).await().atMost(Duration.ofSeconds(5));
            assertEquals(0, db.queryLong("SELECT count(*) FROM push_outbox WHERE tenant = '" + TENANT + "'"));
        } finally {
            db.clearTenant(TENANT);
        }
    }
}
