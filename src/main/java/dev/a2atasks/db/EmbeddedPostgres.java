package dev.a2atasks.db;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One embedded PostgreSQL server per JVM, started on first need.
 *
 * <p>The port is remembered in a system property because dev-mode reloads and test restarts
 * create fresh class loaders: the server, and its data, must outlive them. The server stops
 * with the JVM (the library registers a shutdown hook).
 */
public final class EmbeddedPostgres {

    /** A memo inside this JVM, not configuration: hence not under the a2a.* keys. */
    private static final String PORT_PROPERTY = "dev.a2atasks.embedded-postgres.started-port";

    private EmbeddedPostgres() {
    }

    /** Called reflectively, by the name the dev and test profiles configure (a2a.embedded-postgres.launcher). */
    public static synchronized int ensureStarted() {
        String known = System.getProperty(PORT_PROPERTY);
        if (known != null) {
            return Integer.parseInt(known);
        }
        try {
            var server = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                    // Throw-away data: durability is not worth the fsync cost here.
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setServerConfig("max_connections", "100")
                    // Statement statistics for tests and benchmarks (how many statements a request ran).
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setServerConfig("pg_stat_statements.track", "all")
                    .start();
            int port = server.getPort();
            System.setProperty(PORT_PROPERTY, Integer.toString(port));
            return port;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded PostgreSQL", e);
        }
    }
}
