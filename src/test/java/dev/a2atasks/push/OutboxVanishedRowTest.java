package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/**
 * A delivery whose task is deleted while the worker holds it (a mirror retiring its copy, an
 * operator's clean-up): the worker records its round without the vanished row. Before, it read
 * the row, the delete committed, and its update found nothing: the round failed with an ERROR and
 * a stack trace, and the round's other attempts went unrecorded until their leases expired.
 */
@QuarkusTest
class OutboxVanishedRowTest {

    private static final String TENANT = "OutboxVanishedRowTest";
    private static final String WORKER = "OutboxVanishedRowTest-worker";

    @Inject
    Outbox outbox;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRowDeletedWhileTheWorkerRecordsItsAttemptIsLeftOut() throws Throwable {
        Db db = new Db(dataSource);
        db.clearTenant(TENANT);
        // Held by this test's worker for an hour: the service's own worker leaves it alone.
        db.insertOwedDelivery(TENANT, "alice", WORKER);
        Outbox.Attempt failed = Outbox.Attempt.failed(new PushDeliveryEntity.Key(TENANT, "alice", "t1", "hook", 0L), "timed out");
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(5), () -> 0.5);

        CompletableFuture<Outbox.Recorded> recorded;
        try (Connection deleting = dataSource.getConnection(); Statement s = deleting.createStatement()) {
            deleting.setAutoCommit(false);
            s.execute("DELETE FROM tasks WHERE tenant = '" + TENANT + "' AND id = 't1'"); // cascades to the outbox row
            recorded = CompletableFuture.supplyAsync(() -> {
                try {
                    return VertxContextSupport.subscribeAndAwait(
                            () -> outbox.recordUndelivered(WORKER, List.of(failed), backoff, 12, Duration.ofHours(24)));
                } catch (Throwable t) {
                    throw new CompletionException(t);
                }
            });
            // The worker reaches the row and waits for the delete's lock on it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (db.queryLong("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND query ILIKE '%push_outbox%'") == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertFalse(recorded.isDone(), "the worker waits for the row the delete holds");
            deleting.commit();
        }
        Outbox.Recorded result = recorded.get(10, TimeUnit.SECONDS);
        assertEquals(0, result.retried());
        assertEquals(List.of(), result.dead());
        assertEquals(0, db.queryLong("SELECT count(*) FROM push_outbox WHERE tenant = '" + TENANT + "'"));
    }
}
