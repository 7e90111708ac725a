package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * A statement tried while the database is unreachable fails, and nothing goes off afterwards:
 * no uncaught "Result is already complete" when the pool's acquisition timeout passes. The
 * second test shows what {@link PooledStatements} avoids, {@code Pool#preparedQuery} in
 * vertx-sql-client 4.5 (eclipse-vertx/vertx-sql-client#1706); when it fails, the library is
 * fixed and {@link PooledStatements} can go.
 */
class PooledStatementsUnitTest {

    private io.vertx.core.Vertx vertx;
    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Pool pool;

    @BeforeEach
    void unreachableDatabase() throws Exception {
        vertx = io.vertx.core.Vertx.vertx();
        vertx.exceptionHandler(uncaught::add);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort(); // nothing listens here once it is closed: connections are refused
        }
        pool = Pool.newInstance(PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(2).setConnectionTimeout(300).setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
                .connectingTo(new PgConnectOptions().setHost("127.0.0.1").setPort(closedPort).setUser("u").setDatabase("d"))
                .using(vertx).build());
    }

    @AfterEach
    void close() {
        pool.closeAndAwait();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aStatementThatCannotGetAConnectionFailsAndLeavesNoTimerBehind() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThrows(Exception.class, () -> PooledStatements.execute(pool, "SELECT 1").await().atMost(Duration.ofSeconds(5)));
            assertThrows(Exception.class, () -> PooledStatements.execute(pool, "SELECT $1::int",
                    io.vertx.mutiny.sqlclient.Tuple.of(1)).await().atMost(Duration.ofSeconds(5)));
        }
        Thread.sleep(1_000); // past the 300 ms acquisition timeout
        assertEquals(List.of(), uncaught);
    }

    @Test
    void thePoolsOwnQueryPathLeavesItsTimerBehind() throws Exception {
        assertThrows(Exception.class, () -> pool.preparedQuery("SELECT 1").execute().await().atMost(Duration.ofSeconds(5)));
        Thread.sleep(1_000);
        assertTrue(uncaught.stream().anyMatch(t -> t instanceof IllegalStateException && "Result is already complete".equals(t.getMessage())),
                "the library bug this class works around: " + uncaught);
    }
}
