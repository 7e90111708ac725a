package dev.a2atasks.db;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.jboss.logging.Logger;

import dev.a2atasks.error.A2AException;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Tells a database outage from a bug, and keeps the log readable through one.
 *
 * <p>A request that fails because PostgreSQL cannot be reached (connection refused or reset,
 * the server shutting down, too many connections, no pooled connection in time) is answered
 * {@link A2AException.Unavailable}: nothing was done, a retry will do. The first such failure
 * logs one WARN and starts a probe ({@code SELECT 1} every {@code a2a.database.probe-interval});
 * the probe's first success logs one INFO with the outage's length. Requests in between log
 * nothing: an outage under load is one event, not a stack trace per request.
 */
@ApplicationScoped
public class DatabaseAvailability {

    private static final Logger LOG = Logger.getLogger(DatabaseAvailability.class);

    private final Pool pool;
    private final Vertx vertx;
    private final DatabaseConfig config;
    /** When the current outage was first seen; null while the database is reachable. */
    private final AtomicReference<Instant> downSince = new AtomicReference<>();
    private volatile Instant reachableAgainAt;
    private volatile long probeTimer = -1;

    DatabaseAvailability(Pool pool, Vertx vertx, DatabaseConfig config) {
        this.pool = pool;
        this.vertx = vertx;
        this.config = config;
    }

    /** Whether this failure means the database is out of reach (rather than a bug or a bad statement). */
    public static boolean isOutage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException || t instanceof UnknownHostException
                    || t instanceof ClosedChannelException || t instanceof ClosedConnectionException
                    || t instanceof TimeoutException || t instanceof io.netty.channel.ConnectTimeoutException) {
                return true;
            }
            if (t instanceof PgException pg && isOutageState(pg.getSqlState())) {
                return true;
            }
            // The pool's "no connection in time" and a connection dropped mid-statement carry no type of their own.
            String type = t.getClass().getName();
            if (type.equals("io.vertx.core.impl.NoStackTraceTimeoutException")
                    || type.equals("io.vertx.core.http.ConnectionPoolTooBusyException")
                    || (t instanceof IOException && isDroppedConnection(t.getMessage()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * How the JDK and Netty word a connection the server dropped: "Connection reset by peer"
     * (Netty's native transport), "Connection reset" (the JDK's NIO socket, when a database stops
     * while a statement is in flight), "Broken pipe" (a write after it stopped).
     */
    static boolean isDroppedConnection(String message) {
        return message != null && (message.startsWith("Connection reset") || message.equals("Broken pipe"));
    }

    /**
     * Whether this failure means the database is up but could not finish in time: a statement or
     * lock timeout (the bounds this service sets on every connection), a deadlock or a
     * serialization failure PostgreSQL broke. Retryable, like an outage, but not one.
     */
    public static boolean isBusy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String state = t instanceof PgException pg ? pg.getSqlState() : t instanceof java.sql.SQLException sql ? sql.getSQLState() : null;
            if (state != null && (state.equals("57014") || state.equals("55P03") || state.equals("40P01") || state.equals("40001"))) {
                return true;
            }
            if (isPoolTimeout(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * No pooled connection came free in time: every connection is busy with other requests. The
     * database is up; this replica is saturated. The reactive pool words it "Timeout" (a
     * stackless throwable), Hibernate Reactive "Timeout waiting for connection".
     */
    static boolean isPoolTimeout(Throwable t) {
        String type = t.getClass().getName();
        return (type.equals("io.vertx.core.impl.NoStackTraceThrowable") && "Timeout".equals(t.getMessage()))
                || (t instanceof io.vertx.core.VertxException && "Timeout waiting for connection".equals(t.getMessage()));
    }

    /** The answer to a {@link #isBusy} failure: retry soon. Logged per failure at debug only; the database is not down. */
    public A2AException.Unavailable busy(Throwable failure) {
        LOG.debugf("Database busy: %s", summary(failure));
        return new A2AException.Unavailable(config.retryAfter(), "its database is busy");
    }

    /** SQLSTATE classes that say the server is gone or full, not that the statement is wrong. */
    static boolean isOutageState(String sqlState) {
        return sqlState != null && (sqlState.startsWith("08") // connection exception
                || sqlState.equals("57P01") || sqlState.equals("57P02") || sqlState.equals("57P03") // shutting down, starting up
                || sqlState.equals("53300")); // too many connections
    }

    /** Records the outage this failure shows and words it for the caller. */
    public A2AException.Unavailable outage(Throwable failure) {
        Instant now = Instant.now();
        if (downSince.compareAndSet(null, now)) {
            LOG.warnf("Database unreachable (%s); requests are answered 503/UNAVAILABLE until it is back."
                    + " Probing every %d ms.", summary(failure), config.probeInterval().toMillis());
            startProbe();
        }
        return new A2AException.Unavailable(config.retryAfter());
    }

    /** When the last outage this replica saw ended; null when it has seen none. */
    public Instant reachableAgainAt() {
        return reachableAgainAt;
    }

    /** Whether an outage is being ridden out right now. */
    public boolean isDown() {
        return downSince.get() != null;
    }

    private synchronized void startProbe() {
        if (probeTimer >= 0) {
            return;
        }
        probeTimer = vertx.setPeriodic(config.probeInterval().toMillis(), id -> PooledStatements.execute(pool, "SELECT 1")
                .subscribe().with(ok -> recovered(), ignored -> {
                    // still down: the WARN already said so
                }));
    }

    private synchronized void recovered() {
        Instant since = downSince.getAndSet(null);
        if (probeTimer >= 0) {
            vertx.cancelTimer(probeTimer);
            probeTimer = -1;
        }
        if (since != null) {
            reachableAgainAt = Instant.now();
            LOG.infof("Database reachable again after an outage of %d ms", Duration.between(since, reachableAgainAt).toMillis());
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (probeTimer >= 0) {
            vertx.cancelTimer(probeTimer);
            probeTimer = -1;
        }
    }

    /** The innermost cause's type and message: enough to tell refused from reset from full, without a trace. */
    private static String summary(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
