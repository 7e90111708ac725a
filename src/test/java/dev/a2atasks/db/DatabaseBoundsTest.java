package dev.a2atasks.db;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/**
 * Every wait in the database has a bound: the service's connections carry a statement, a lock
 * and an idle-in-transaction timeout, and a request that hits one (here: a row lock another
 * session holds) is answered as retryable (503 with Retry-After), not as an internal error.
 */
@QuarkusTest
class DatabaseBoundsTest extends BindingTest {

    @Inject
    Pool pool;

    @Inject
    AgroalDataSource jdbc;

    @Test
    void theServicesConnectionsCarryTheBounds() {
        var row = pool.query("SELECT current_setting('statement_timeout'), current_setting('lock_timeout'),"
                + " current_setting('idle_in_transaction_session_timeout')").execute().await().atMost(Duration.ofSeconds(10))
                .iterator().next();
        assertEquals("30s", row.getString(0));
        assertEquals("2s", row.getString(1)); // 10s outside the test profile
        assertEquals("1min", row.getString(2));
    }

    @Test
    void aLockHeldPastTheBoundIsAnsweredRetryable() throws Exception {
        db.clearTenant("DatabaseBoundsTest");
        db.insertTask("DatabaseBoundsTest", "alice", "held", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
        try (Connection holder = jdbc.getConnection(); Statement s = holder.createStatement()) {
            holder.setAutoCommit(false);
            s.execute("SELECT 1 FROM tasks WHERE tenant = 'DatabaseBoundsTest' AND id = 'held' FOR UPDATE");
            given().header("Authorization", "Bearer " + Tokens.valid("DatabaseBoundsTest", "alice")).header("A2A-Version", "1.0")
                    .contentType("application/json").body("{}").post("/tasks/held:cancel")
                    .then().statusCode(503).header("Retry-After", org.hamcrest.Matchers.notNullValue())
                    .body("error.status", equalTo("UNAVAILABLE")).body("error.message", containsString("its database is busy"));
            holder.rollback();
        }
    }
}
