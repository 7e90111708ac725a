package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.smallrye.config.ConfigValue;

/**
 * Which starts get Flyway's JDBC URL ({@link MigrationUrlConfigSourceFactory}): those that migrate,
 * the default; and the URL, the reactive one as JDBC. The packaged application's starts with and
 * without migration are {@code SchemaMigrationIT}'s.
 */
class MigrationUrlUnitTest {

    @Test
    void aStartMigratesUnlessMigrateAtStartIsFalse() {
        assertTrue(MigrationUrlConfigSourceFactory.migrates(null));
        assertTrue(MigrationUrlConfigSourceFactory.migrates(value("true")));
        assertTrue(MigrationUrlConfigSourceFactory.migrates(value(" ")));
        assertFalse(MigrationUrlConfigSourceFactory.migrates(value("false")));
        assertFalse(MigrationUrlConfigSourceFactory.migrates(value("FALSE")));
    }

    @Test
    void theJdbcUrlIsTheReactiveOneAsJdbcParametersKept() {
        assertEquals("jdbc:postgresql://db.example:5432/a2a?sslmode=require",
                MigrationUrlConfigSourceFactory.jdbcUrl("postgresql://db.example:5432/a2a?sslmode=require"));
        assertEquals("jdbc:postgresql://127.0.0.1:5432/a2a",
                MigrationUrlConfigSourceFactory.jdbcUrl("vertx-reactive:postgresql://127.0.0.1:5432/a2a"));
    }

    private static ConfigValue value(String text) {
        return ConfigValue.builder().withName(MigrationUrlConfigSourceFactory.MIGRATE_AT_START).withValue(text).build();
    }
}
