package dev.a2atasks.bench;

import java.net.URI;

/** The PostgreSQL the service and the SQL baselines use: an embedded one, or one given by URL. */
record Database(String reactiveUrl, String jdbcUrl, String user, String password, AutoCloseable server) implements AutoCloseable {

    static Database embedded() throws Exception {
        var server = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                .setServerConfig("shared_buffers", "512MB")
                .setServerConfig("max_connections", "200")
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                .setServerConfig("max_wal_size", "4GB")
                .start();
        String hostPortDb = "//127.0.0.1:" + server.getPort() + "/postgres";
        return new Database("postgresql:" + hostPortDb, "jdbc:postgresql:" + hostPortDb + "?user=postgres", "postgres", "postgres",
                server);
    }

    /** @param url postgresql://host:port/database */
    static Database external(String url, String user, String password) {
        URI uri = URI.create(url);
        String hostPortDb = "//" + uri.getHost() + ":" + (uri.getPort() == -1 ? 5432 : uri.getPort()) + uri.getPath();
        return new Database("postgresql:" + hostPortDb,
                "jdbc:postgresql:" + hostPortDb + "?user=" + user + "&password=" + password, user, password, null);
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.close();
        }
    }
}
