package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

/**
 * What counts as the database being out of reach (503 / UNAVAILABLE, one WARN, no stack trace)
 * rather than a defect. A CI run caught the JDK's wording of a dropped connection ("Connection
 * reset", wrapped by Mutiny) logged as an ERROR by the push worker while the database stopped.
 */
class DatabaseAvailabilityUnitTest {

    @Test
    void droppedAndRefusedConnectionsAreOutages() {
        assertTrue(DatabaseAvailability.isOutage(new CompletionException(new SocketException("Connection reset"))));
        assertTrue(DatabaseAvailability.isOutage(new java.io.IOException("Connection reset by peer")));
        assertTrue(DatabaseAvailability.isOutage(new SocketException("Broken pipe")));
        assertTrue(DatabaseAvailability.isOutage(new RuntimeException(new ConnectException("Connection refused"))));
    }

    @Test
    void timeoutsAndDeadlocksAreABusyDatabaseNotAnOutage() {
        for (String state : new String[] { "57014", "55P03", "40P01", "40001" }) {
            Throwable failure = new RuntimeException(new java.sql.SQLException("ERROR", state));
            assertTrue(DatabaseAvailability.isBusy(failure), state);
            assertFalse(DatabaseAvailability.isOutage(failure), state);
        }
        assertFalse(DatabaseAvailability.isBusy(new java.sql.SQLException("duplicate key", "23505")));
        assertFalse(DatabaseAvailability.isBusy(new IllegalStateException("57014")));
    }

    @Test
    void aPoolWithNoConnectionFreeInTimeIsBusyNotDown() {
        // As the reactive pool and Hibernate Reactive report it (seen with 100 subscribers on a 20-connection pool).
        Throwable pool = new CompletionException(new io.vertx.core.impl.NoStackTraceThrowable("Timeout"));
        Throwable session = new io.vertx.core.VertxException("Timeout waiting for connection");
        for (Throwable failure : new Throwable[] { pool, session }) {
            assertTrue(DatabaseAvailability.isBusy(failure), failure.toString());
            assertFalse(DatabaseAvailability.isOutage(failure), failure.toString());
        }
        assertFalse(DatabaseAvailability.isBusy(new io.vertx.core.impl.NoStackTraceThrowable("Something else")));
    }

    @Test
    void otherFailuresAreNot() {
        assertFalse(DatabaseAvailability.isOutage(new IllegalStateException("Connection reset")), "not an I/O failure");
        assertFalse(DatabaseAvailability.isOutage(new SocketException("Permission denied")));
        assertFalse(DatabaseAvailability.isOutage(new NullPointerException()));
    }
}
