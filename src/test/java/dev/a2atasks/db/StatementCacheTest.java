package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Each of the three pools keeps a statement longer than Vert.x's default limit (2,048 characters)
 * prepared on its connection: run twice, it is one named statement in PostgreSQL's
 * {@code pg_prepared_statements}, as a short one is. Without {@link StatementCache} the long one is
 * prepared unnamed at every call and never listed.
 */
@QuarkusTest
class StatementCacheTest {

    /** As long as the outbox claim and more: the longest statement the service sends is about 4,100 characters. */
    private static final String LONG = "SELECT $1::int + 1 AS n /* " + "x".repeat(5_000) + " */";

    @Inject
    Pool requests;

    @Inject
    @ReactiveDataSource("leases")
    Pool leases;

    @Inject
    @ReactiveDataSource("push")
    Pool push;

    @Test
    void theRequestPoolKeepsALongStatementPrepared() {
        assertEquals(1, preparedCopiesAfterTwoRuns(requests));
    }

    @Test
    void theLeasePoolKeepsALongStatementPrepared() {
        assertEquals(1, preparedCopiesAfterTwoRuns(leases));
    }

    @Test
    void thePushPoolKeepsALongStatementPrepared() {
        assertEquals(1, preparedCopiesAfterTwoRuns(push));
    }

    private static long preparedCopiesAfterTwoRuns(Pool pool) {
        return pool.withConnection(connection -> connection.preparedQuery(LONG).execute(Tuple.of(1))
                .chain(() -> connection.preparedQuery(LONG).execute(Tuple.of(2)))
                .invoke(rows -> assertEquals(3, rows.iterator().next().getInteger("n")))
                .chain(() -> connection.preparedQuery("SELECT count(*) AS copies FROM pg_prepared_statements WHERE statement = $1")
                        .execute(Tuple.of(LONG))))
                .map(rows -> rows.iterator().next().getLong("copies"))
                .await().atMost(Duration.ofSeconds(30));
    }
}
