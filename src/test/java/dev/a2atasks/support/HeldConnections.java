package dev.a2atasks.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * Every connection of a pool, taken and held until closed: what a replica flooded with requests
 * looks like to work that must not wait for that pool.
 */
public final class HeldConnections implements AutoCloseable {

    private final List<SqlConnection> held = new ArrayList<>();

    private HeldConnections() {
    }

    /** Takes {@code size} connections (the pool's max-size) of {@code pool}. */
    public static HeldConnections all(Pool pool, int size) {
        HeldConnections connections = new HeldConnections();
        try {
            for (int i = 0; i < size; i++) {
                connections.held.add(pool.getConnection().await().atMost(Duration.ofSeconds(10)));
            }
        } catch (RuntimeException e) {
            connections.close();
            throw e;
        }
        return connections;
    }

    @Override
    public void close() {
        held.forEach(c -> c.close().await().atMost(Duration.ofSeconds(10)));
        held.clear();
    }
}
