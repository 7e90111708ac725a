package dev.a2atasks.db;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * One statement on a connection taken from the pool for it and given back after, for the
 * hand-written SQL. Not {@code Pool#preparedQuery}, which does the same in one call: in
 * vertx-sql-client 4.5 that path starts a timer for the pool's acquisition timeout and does not
 * cancel it when the acquisition fails (the database unreachable); the timer then fires at a
 * finished promise and Vert.x logs an uncaught {@code IllegalStateException: Result is already
 * complete} for every statement tried during an outage (eclipse-vertx/vertx-sql-client#1706). A
 * connection asked for with {@code withConnection} waits under the same timeout without it.
 */
public final class PooledStatements {

    private PooledStatements() {
    }

    /** A prepared statement with these arguments. */
    public static Uni<RowSet<Row>> execute(Pool pool, String sql, Tuple arguments) {
        return pool.withConnection(connection -> connection.preparedQuery(sql).execute(arguments));
    }

    /** A plain statement without arguments (simple protocol). */
    public static Uni<RowSet<Row>> execute(Pool pool, String sql) {
        return pool.withConnection(connection -> connection.query(sql).execute());
    }
}
