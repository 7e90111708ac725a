package dev.a2atasks.db;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.pgclient.PgException;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

/**
 * When the service does not migrate at start-up ({@code quarkus.flyway.migrate-at-start=false},
 * the serverless set-up: a separate run migrates), it checks before serving that the database's
 * schema is the one this build needs ({@link SchemaVersion}), over the reactive pool: one query,
 * no Flyway and no JDBC pool at start-up. An older or failed schema stops the start with one ERROR
 * saying what to run. A database out of reach does not stop it: the service starts (requests get
 * 503/UNAVAILABLE meanwhile), and the check is retried until it can be made.
 */
@ApplicationScoped
class SchemaCheck {

    private static final Logger LOG = Logger.getLogger(SchemaCheck.class);
    private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final Duration FIRST_ATTEMPT = Duration.ofSeconds(10);

    private final Pool pool;
    private final Vertx vertx;
    private final DatabaseConfig config;
    private final boolean migratedAtStart;
    private final String table;

    SchemaCheck(Pool pool, Vertx vertx, DatabaseConfig config,
            @ConfigProperty(name = "quarkus.flyway.migrate-at-start", defaultValue = "false") boolean migratedAtStart,
            @ConfigProperty(name = "quarkus.flyway.table", defaultValue = "flyway_schema_history") String table) {
        this.pool = pool;
        this.vertx = vertx;
        this.config = config;
        this.migratedAtStart = migratedAtStart;
        this.table = table;
    }

    /** Before the other start-up observers (the workers, the mirror): nothing runs against a schema that is not there. */
    void check(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) StartupEvent ignored) {
        if (migratedAtStart) {
            return; // Flyway has just brought the schema to this build's version, or failed the start itself
        }
        if (!TABLE.matcher(table).matches()) {
            throw new IllegalStateException("quarkus.flyway.table is not a plain table name: " + table);
        }
        List<SchemaVersion.Applied> history;
        try {
            history = history().await().atMost(FIRST_ATTEMPT);
        } catch (RuntimeException e) {
            // No answer within the first attempt (a database that drops packets) is out of reach too.
            if (!(e instanceof io.smallrye.mutiny.TimeoutException) && !DatabaseAvailability.isOutage(e)) {
                throw e;
            }
            LOG.warnf("Schema not checked yet, the database is out of reach (%s): starting, and checking again every %s",
                    e.getMessage(), config.probeInterval());
            retryLater();
            return;
        }
        Optional<String> refusal = SchemaVersion.refusal(SchemaVersion.REQUIRED, history);
        if (refusal.isPresent()) {
            LOG.error("Refusing to start: " + refusal.get());
            // Quarkus ends a start that fails with a ConfigurationException with exit code 1 and the
            // message alone, no "Failed to start" trace: this set-up (no migration at start-up, this
            // database) cannot run, as with a missing setting.
            throw new ConfigurationException(refusal.get());
        }
        log(history);
    }

    private void retryLater() {
        vertx.setTimer(config.probeInterval().toMillis(), id -> history().subscribe().with(history -> {
            Optional<String> refusal = SchemaVersion.refusal(SchemaVersion.REQUIRED, history);
            if (refusal.isPresent()) {
                LOG.error("Stopping: " + refusal.get());
                Quarkus.asyncExit(1);
            } else {
                log(history);
            }
        }, failure -> {
            if (DatabaseAvailability.isOutage(failure)) {
                retryLater();
            } else {
                LOG.errorf("Stopping: the schema check failed: %s", failure.toString());
                Quarkus.asyncExit(1);
            }
        }));
    }

    private static void log(List<SchemaVersion.Applied> history) {
        int newest = SchemaVersion.newest(history);
        if (newest > SchemaVersion.REQUIRED) {
            LOG.infof("Database schema V%d is newer than this build's V%d: accepted (migrations only add)", newest, SchemaVersion.REQUIRED);
        } else {
            LOG.debugf("Database schema V%d, as this build needs", newest);
        }
    }

    /** The history's versioned rows; none when the table does not exist (a database never migrated). */
    private io.smallrye.mutiny.Uni<List<SchemaVersion.Applied>> history() {
        return PooledStatements.execute(pool, "SELECT version, success FROM " + table + " WHERE version IS NOT NULL")
                .map(rows -> {
                    List<SchemaVersion.Applied> applied = new ArrayList<>();
                    for (Row row : rows) {
                        applied.add(new SchemaVersion.Applied(row.getString("version"), row.getBoolean("success")));
                    }
                    return applied;
                })
                .onFailure(e -> e instanceof PgException pg && "42P01".equals(pg.getSqlState())) // undefined_table
                .recoverWithItem(List.of());
    }
}
