/**
 * The database as a dependency: telling an outage or a busy database (a statement or lock timeout)
 * from a bug (retryable UNAVAILABLE, one WARN and one INFO per outage); this replica's identity
 * among those sharing the database ({@link dev.a2atasks.db.Instance}, the owner named in its
 * leases); the schema this build needs, checked at start-up when it does not migrate
 * (refusing an older one); the distribution of the schema by owner on a Citus coordinator after
 * every migration ({@link dev.a2atasks.db.CitusDistribution}, {@code a2a.database.distribution=citus},
 * through Flyway's callback); and the embedded PostgreSQL of the dev run and the tests, which only the
 * dev/test profiles name; {@link dev.a2atasks.db.PooledStatements}, how hand-written SQL is sent on
 * the pool; {@link dev.a2atasks.db.MigrationUrlConfigSourceFactory}, Flyway's JDBC URL for a start that
 * migrates only; {@link dev.a2atasks.db.StatementCache}, how the pools are built (every statement kept
 * prepared, however long). May use: error, the reactive pool, Vert.x, Flyway's callback API; the embedded library only
 * from {@code EmbeddedPostgres}, never by name from other code.
 */
package dev.a2atasks.db;
