package dev.a2atasks.db;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.logging.Logger;

import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Points the datasource at an embedded PostgreSQL when none is configured.
 *
 * <p>A new user's first command (the dev run) and the test suite need a real database but no
 * set-up. When {@code quarkus.datasource.reactive.url} is absent, this starts one (see
 * {@link EmbeddedPostgres}) and supplies the reactive and JDBC URLs as low-priority config, so
 * anything the user configures wins. The embedded server's classes are only on the dev and test
 * class paths: a packaged application without a URL stops here, before anything tries to connect,
 * with a message saying what to set.
 */
public final class EmbeddedPostgresConfigSourceFactory implements ConfigSourceFactory {

    static final String REACTIVE_URL = "quarkus.datasource.reactive.url";
    static final String ENABLED = "a2a.embedded-postgres.enabled";
    /** Set by the dev and test profiles only: the class whose static ensureStarted() starts the server. */
    static final String LAUNCHER = "a2a.embedded-postgres.launcher";
    private static final Logger LOG = Logger.getLogger(EmbeddedPostgresConfigSourceFactory.class);

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        // Config is also built while the application is augmented and during static init;
        // only the real start of the application may start a server.
        if (ExecutionMode.current() != ExecutionMode.RUNTIME_INIT) {
            return List.of();
        }
        if (isSet(context.getValue(REACTIVE_URL))) {
            return List.of();
        }
        ConfigValue enabled = context.getValue(ENABLED);
        if (isSet(enabled) && !Boolean.parseBoolean(enabled.getValue())) {
            return List.of(); // the user takes care of the database some other way
        }
        ConfigValue launcher = context.getValue(LAUNCHER);
        if (!isSet(launcher)) {
            throw new IllegalStateException("No database configured: set " + REACTIVE_URL
                    + " (e.g. postgresql://db.example:5432/a2a, or the env var QUARKUS_DATASOURCE_REACTIVE_URL)"
                    + " and quarkus.datasource.username/password. The embedded PostgreSQL exists only in the dev run and the tests.");
        }
        int port = start(launcher.getValue());
        LOG.warnf("No %s configured: using an embedded PostgreSQL on 127.0.0.1:%d (for development and tests only)",
                REACTIVE_URL, port);
        String hostPortDb = "//127.0.0.1:" + port + "/postgres";
        return List.of(new PropertiesConfigSource(Map.of(
                REACTIVE_URL, "postgresql:" + hostPortDb,
                "quarkus.datasource.jdbc.url", "jdbc:postgresql:" + hostPortDb,
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres"), "a2a-embedded-postgres", 50));
    }

    @Override
    public OptionalInt getPriority() {
        return OptionalInt.of(50);
    }

    /**
     * Starts the embedded server through the class the dev and test profiles name. Nothing in the
     * application names it in code, so neither the packaged application nor native-image analysis
     * can reach it, or the dev/test-only library behind it (Maven scope "provided").
     */
    private static int start(String launcherClass) {
        try {
            return (int) Class.forName(launcherClass, true, EmbeddedPostgresConfigSourceFactory.class.getClassLoader())
                    .getMethod("ensureStarted").invoke(null);
        } catch (ReflectiveOperationException | LinkageError e) {
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException ite ? ite.getCause() : e;
            throw new IllegalStateException("No database configured (" + REACTIVE_URL + ") and the embedded PostgreSQL ("
                    + launcherClass + ") could not be started: " + cause, cause);
        }
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }
}
