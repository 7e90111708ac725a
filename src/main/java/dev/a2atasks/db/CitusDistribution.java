package dev.a2atasks.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jboss.logging.Logger;

import io.quarkus.flyway.FlywayConfigurationCustomizer;
import jakarta.inject.Singleton;

/**
 * {@code a2a.database.distribution=citus}: after every migration (at start-up, or the migrate-and-exit
 * run of a release), the schema is distributed by owner on the Citus coordinator the service is
 * connected to ({@code db/citus/distribute.sql}, which leaves what is distributed already as it is).
 * A database without the Citus extension fails the migration with a message that says so, rather
 * than a service that believes it scales out and does not. With {@code none} (the default) nothing
 * happens here.
 */
@Singleton
public class CitusDistribution implements FlywayConfigurationCustomizer {

    static final String SCRIPT = "db/citus/distribute.sql";
    private static final Logger LOG = Logger.getLogger(CitusDistribution.class);

    private final DatabaseConfig config;

    CitusDistribution(DatabaseConfig config) {
        this.config = config;
    }

    @Override
    public void customize(FluentConfiguration flyway) {
        if (config.distribution() != DatabaseConfig.Distribution.CITUS) {
            return;
        }
        Callback[] callbacks = Arrays.copyOf(flyway.getCallbacks(), flyway.getCallbacks().length + 1);
        callbacks[callbacks.length - 1] = new AfterMigrate();
        flyway.callbacks(callbacks);
    }

    /** Runs the script on Flyway's connection once the migrations are applied. */
    static final class AfterMigrate implements Callback {

        @Override
        public boolean supports(Event event, Context context) {
            return event == Event.AFTER_MIGRATE;
        }

        @Override
        public boolean canHandleInTransaction(Event event, Context context) {
            return true;
        }

        @Override
        public void handle(Event event, Context context) {
            try {
                distribute(context.getConnection());
            } catch (SQLException e) {
                throw new IllegalStateException("a2a.database.distribution=citus: distributing the schema failed: " + e.getMessage(), e);
            }
        }

        @Override
        public String getCallbackName() {
            return "a2a-citus-distribution";
        }
    }

    static void distribute(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            try (ResultSet citus = s.executeQuery("SELECT extversion FROM pg_extension WHERE extname = 'citus'")) {
                if (!citus.next()) {
                    throw new IllegalStateException("a2a.database.distribution=citus, but the database has no Citus extension"
                            + " (CREATE EXTENSION citus on the coordinator and every worker, then add the workers)");
                }
                LOG.infof("Distributing the schema by owner on Citus %s", citus.getString(1));
            }
            s.execute(script());
        }
    }

    private static String script() {
        try (InputStream in = CitusDistribution.class.getClassLoader().getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException(SCRIPT + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
