package dev.a2atasks.db;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * The JDBC URL Flyway migrates over, {@code jdbc:} + the reactive URL, given only to a start that
 * migrates. The JDBC datasource exists for Flyway alone; left without a URL, Quarkus deactivates
 * it, and with it the Flyway container it would otherwise build at every start whether it
 * migrates or not (its start-up bean's active check looks at the datasource, not at
 * {@code quarkus.flyway.active}): about 180 classes and a Flyway configuration a replica that only
 * checks the schema never uses. A URL the user sets wins over this one (a low ordinal).
 */
public final class MigrationUrlConfigSourceFactory implements ConfigSourceFactory {

    static final String JDBC_URL = "quarkus.datasource.jdbc.url";
    static final String MIGRATE_AT_START = "quarkus.flyway.migrate-at-start";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (ExecutionMode.current() != ExecutionMode.RUNTIME_INIT) {
            return List.of();
        }
        ConfigValue migrate = context.getValue(MIGRATE_AT_START);
        ConfigValue reactive = context.getValue(EmbeddedPostgresConfigSourceFactory.REACTIVE_URL);
        if (!migrates(migrate) || !isSet(reactive)) {
            return List.of(); // no migration, or no URL yet (the embedded PostgreSQL's factory gives both)
        }
        return List.of(new PropertiesConfigSource(Map.of(JDBC_URL, jdbcUrl(reactive.getValue())), "a2a-migration-url", 40));
    }

    /** {@code quarkus.flyway.migrate-at-start} is true unless set to false (application.properties sets it true). */
    static boolean migrates(ConfigValue migrate) {
        return !isSet(migrate) || Boolean.parseBoolean(migrate.getValue().trim());
    }

    /** A reactive URL ({@code postgresql://host:port/db?params}, or with Quarkus' {@code vertx-reactive:} prefix) as a JDBC URL. */
    static String jdbcUrl(String reactiveUrl) {
        return "jdbc:" + reactiveUrl.trim().replaceFirst("^vertx-reactive:", "");
    }

    @Override
    public OptionalInt getPriority() {
        return OptionalInt.of(40);
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }
}
