package dev.a2atasks.db;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.core.Vertx;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.Pool;

/**
 * The three pools (requests, lease renewal, push delivery) are built as Quarkus builds them, with
 * one change: every statement the service sends is kept prepared on its connection, however long
 * its SQL. Vert.x caches a prepared statement only if its SQL is at most 2,048 characters; a
 * longer one is prepared again at every call, which is a round trip of its own (Parse and Describe,
 * then the execution) before the statement runs. The run's status update, the artifact
 * replacement and the outbox claim are longer than that and run on every agent update and every
 * delivery round. Quarkus has no setting for the limit; a {@link PgPoolCreator} is its hook for
 * options of this kind. The cache stays bounded by its size (statements per connection), not by
 * their length: the service's SQL is a fixed set of constants, never built from values.
 *
 * <p>The push pool's creator is {@code push.DeliveryLoop}'s: it builds that pool with
 * {@link #create(PgPoolCreator.Input, Vertx)} on the push worker's own Vert.x.
 */
public final class StatementCache {

    /** Longer than any statement of the service (the outbox claim, about 4,100 characters, is the longest). */
    static final int SQL_LIMIT = 16 * 1024;

    private StatementCache() {
    }

    static Pool create(PgPoolCreator.Input input) {
        return create(input, input.vertx());
    }

    /** A pool as Quarkus would build it from {@code input}, on {@code vertx}, every statement kept prepared. */
    public static Pool create(PgPoolCreator.Input input, Vertx vertx) {
        input.pgConnectOptionsList().forEach(options -> options.setPreparedStatementCacheSqlLimit(SQL_LIMIT));
        return PgDriver.INSTANCE.createPool(vertx, input.pgConnectOptionsList(), input.poolOptions());
    }

    /** The creators Quarkus looks up by each datasource's qualifier. */
    static final class Creators {

        @Produces
        @Singleton
        PgPoolCreator requests() {
            return StatementCache::create;
        }

        @Produces
        @Singleton
        @ReactiveDataSource("leases")
        PgPoolCreator leases() {
            return StatementCache::create;
        }
    }
}
