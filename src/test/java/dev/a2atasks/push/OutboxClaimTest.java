package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.a2atasks.support.Db;
import dev.a2atasks.support.PushOff;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;

/**
 * What one claim ({@link OutboxStatements#CLAIM}, one statement) takes, on a real PostgreSQL with
 * no delivery worker of the service's own: a registration's due events in order up to the first
 * one not free, one share of its tenant and of its URL a registration, nothing leased that was
 * not taken. The rows are due since 2000, before anything another test class left, so a claim of
 * as many registrations as this test writes reaches its own first. Once its own are all held, a
 * claim reaches rows other test classes left owed (a webhook that was still being retried when
 * their service stopped): those it leases for a minute, and the assertions leave them out.
 */
@QuarkusTest
@TestProfile(PushOff.class)
class OutboxClaimTest {

    private static final String A = "OutboxClaimTest-a";
    private static final String B = "OutboxClaimTest-b";
    private static final String WORKER = "OutboxClaimTest-worker";

    @Inject
    Outbox outbox;

    @Inject
    AgroalDataSource dataSource;

    private Db db;

    /**
     * Tenant a: registrations t1, t2, t3, each owed events 0-2, all to one URL; t1's event 2 is a retry
     * not due for an hour, so t1's batch ends before it. Tenant b: t4, owed event 0, to a URL of its own.
     */
    @BeforeEach
    void owed() {
        db = new Db(dataSource);
        clear();
        for (String task : List.of("t1", "t2", "t3")) {
            registration(A, task, "http://192.0.2.1/a", 3);
        }
        db.execute("UPDATE push_outbox SET next_attempt_at = now() + interval '1 hour' WHERE tenant = '" + A
                + "' AND task_id = 't1' AND event_seq = 2");
        registration(B, "t4", "http://192.0.2.2/b", 1);
    }

    @AfterEach
    void clear() {
        db.clearTenant(A);
        db.clearTenant(B);
    }

    @Test
    void aRegistrationsDueEventsComeInOrderAndATenantTakesNoMoreThanItsShare() {
        DeliveryShares shares = new DeliveryShares(2, 10);
        Map<String, List<Long>> claimed = claim(shares, 4);

        // a's share is two: t1 and t2 (due first), not t3; t1's batch stops before its retry not yet due.
        assertEquals(Map.of(A + "/t1", List.of(0L, 1L), A + "/t2", List.of(0L, 1L, 2L), B + "/t4", List.of(0L)), claimed);
        assertEquals(6, leased(), "only the rows taken are leased");
        assertEquals(Map.of(A, 2, B, 1), shares.inUse().byTenant(), "one share a batch");
    }

    @Test
    void sharesAlreadyInFlightLeaveOnlyTheRoomThatIsLeft() {
        DeliveryShares shares = new DeliveryShares(2, 1);
        shares.take(A, "http://192.0.2.9/elsewhere"); // one of a's two in flight
        shares.take("someone else", "http://192.0.2.2/b"); // b's URL is full
        Map<String, List<Long>> claimed = claim(shares, 4);

        // a has one share left, its URL one: t1. b's URL is full: nothing of b's.
        assertEquals(Map.of(A + "/t1", List.of(0L, 1L)), claimed);
        assertEquals(2, leased());
    }

    @Test
    void aRegistrationAnotherWorkerHoldsIsPassedOver() {
        db.execute("UPDATE push_outbox SET lease_owner = 'another', lease_expires_at = now() + interval '1 minute' WHERE tenant = '"
                + A + "' AND task_id = 't2' AND event_seq = 0");
        Map<String, List<Long>> claimed = claim(new DeliveryShares(10, 10), 4);

        assertEquals(Map.of(A + "/t1", List.of(0L, 1L), A + "/t3", List.of(0L, 1L, 2L), B + "/t4", List.of(0L)), claimed);
    }

    @Test
    void theRowsDeliveredAreDeletedByTheClaimThatTakesWhatTheirRegistrationsOweNext() {
        DeliveryShares shares = new DeliveryShares(10, 10);
        assertEquals(Map.of(A + "/t1", List.of(0L, 1L), A + "/t2", List.of(0L, 1L, 2L), A + "/t3", List.of(0L, 1L, 2L), B + "/t4",
                List.of(0L)), claim(shares, 4));
        // While t3's three events were sent, its task wrote a fourth, due like the rest: it waits behind them.
        db.execute("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload) VALUES ('" + A + "', 'o', 't3', 3, 'STATUS_UPDATE', '{}')");
        db.execute("INSERT INTO push_outbox (tenant, owner, task_id, config_id, event_seq, next_attempt_at, created_at) VALUES ('" + A
                + "', 'o', 't3', 'hook', 3, timestamptz '2000-01-01' + interval '3 minutes', now())");
        assertEquals(Map.of(), claim(new DeliveryShares(10, 10), 4), "nothing claimable while t3's earlier events are owed");

        // t3's three events and t4's one were delivered: the claim that deletes them takes t3's fourth.
        List<PushDeliveryEntity.Key> delivered = List.of(key(A, "t3", 0), key(A, "t3", 1), key(A, "t3", 2), key(B, "t4", 0));
        assertEquals(Map.of(A + "/t3", List.of(3L)), claim(new DeliveryShares(10, 10), 4, delivered));
        assertEquals(0, db.queryLong("SELECT count(*) FROM push_outbox WHERE (tenant = '" + A + "' AND task_id = 't3' AND event_seq < 3)"
                + " OR tenant = '" + B + "'"), "the delivered rows are gone");
        assertEquals(6, leased(), "t1's two and t2's three are still held, and now t3's fourth");
    }

    private static PushDeliveryEntity.Key key(String tenant, String task, long seq) {
        return new PushDeliveryEntity.Key(tenant, "o", task, "hook", seq);
    }

    /** Claims up to {@code limit} registrations, 16 events each at most: each batch's events by tenant/task. */
    private Map<String, List<Long>> claim(DeliveryShares shares, int limit) {
        return claim(shares, limit, List.of());
    }

    /** The same, deleting the rows {@code delivered} in the claim; only this test's tenants' batches. */
    private Map<String, List<Long>> claim(DeliveryShares shares, int limit, List<PushDeliveryEntity.Key> delivered) {
        List<Outbox.Batch> batches = outbox.claim(WORKER, limit, 16, Duration.ofMinutes(1), shares, delivered).await()
                .atMost(Duration.ofSeconds(10));
        Map<String, List<Long>> claimed = new TreeMap<>();
        for (Outbox.Batch batch : batches) {
            if (!batch.config().tenant.equals(A) && !batch.config().tenant.equals(B)) {
                continue; // left by another test class (see the class comment)
            }
            claimed.put(batch.config().tenant + "/" + batch.config().taskId, batch.events().stream().map(e -> e.key().eventSeq).toList());
        }
        return claimed;
    }

    private long leased() {
        return db.queryLong("SELECT count(*) FROM push_outbox WHERE tenant IN ('" + A + "', '" + B + "') AND lease_owner = '" + WORKER + "'");
    }

    /** A task owed {@code events} events by its registration "hook", due since 2000 (the first task's soonest). */
    private void registration(String tenant, String task, String url, int events) {
        db.insertTask(tenant, "o", task, "", "TASK_STATE_WORKING", Instant.now());
        db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) VALUES ('" + tenant + "', 'o', '" + task
                + "', 'hook', '" + url + "', now())");
        db.execute("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload) SELECT '" + tenant + "', 'o', '" + task
                + "', g, 'STATUS_UPDATE', '{}' FROM generate_series(0, " + (events - 1) + ") AS g");
        db.execute("INSERT INTO push_outbox (tenant, owner, task_id, config_id, event_seq, next_attempt_at, created_at) SELECT '" + tenant
                + "', 'o', '" + task + "', 'hook', g, timestamptz '2000-01-01' + interval '1 minute' * " + task.substring(1)
                + ", now() FROM generate_series(0, " + (events - 1) + ") AS g");
    }
}
