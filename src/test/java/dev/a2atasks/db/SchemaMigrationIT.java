package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.Tokens;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Issue 15, the serverless set-up: the service started with {@code QUARKUS_FLYWAY_MIGRATE_AT_START=false}
 * refuses a database whose schema is missing or older than the build's, with one ERROR and no stack
 * trace; a separate run of the same build with {@code QUARKUS_INIT_AND_EXIT=true} migrates and
 * exits 0 without serving; then the service starts and serves. Real processes (the packaged
 * application), a real PostgreSQL. Runs after {@code package}, in {@code verify}.
 */
class SchemaMigrationIT {

    private static final Map<String, String> NO_MIGRATION = Map.of("QUARKUS_FLYWAY_MIGRATE_AT_START", "false");

    @Test
    void refusedBeforeTheMigrationRunThenServes() throws Exception {
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start();
                Connection db = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres",
                        "postgres", "postgres");
                Statement sql = db.createStatement()) {
            PackagedServer.Exit empty = PackagedServer.runToExit("schema-empty", database, NO_MIGRATION);
            assertNotEquals(0, empty.code(), empty.log());
            assertRefused(empty.log(), "Refusing to start: the database has no a2a-tasks schema");

            PackagedServer.Exit migration = PackagedServer.runToExit("schema-migrate", database, Map.of("QUARKUS_INIT_AND_EXIT", "true"));
            assertEquals(0, migration.code(), migration.log());
            assertFalse(migration.log().contains("Listening on"), "the migration run serves nothing:\n" + migration.log());
            assertEquals(SchemaVersion.REQUIRED, newest(sql));

            // The schema of the release before: its newest migration not yet recorded.
            sql.execute("CREATE TABLE history_copy AS SELECT * FROM flyway_schema_history");
            sql.execute("DELETE FROM flyway_schema_history WHERE version = '" + SchemaVersion.REQUIRED + "'");
            PackagedServer.Exit older = PackagedServer.runToExit("schema-older", database, NO_MIGRATION);
            assertNotEquals(0, older.code(), older.log());
            assertRefused(older.log(), "Refusing to start: the database schema is at V" + (SchemaVersion.REQUIRED - 1)
                    + ", this build needs V" + SchemaVersion.REQUIRED + ".");
            sql.execute("INSERT INTO flyway_schema_history SELECT * FROM history_copy WHERE version = '" + SchemaVersion.REQUIRED + "'");

            try (PackagedServer server = PackagedServer.start("schema-current", database, NO_MIGRATION)) {
                HttpClient http = HttpClient.newHttpClient();
                HttpResponse<String> card = http.send(HttpRequest.newBuilder(URI.create(server.url("/.well-known/agent-card.json"))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, card.statusCode());
                HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create(server.url("/tasks")))
                        .header("A2A-Version", "1.0")
                        .header("Authorization", "Bearer " + Tokens.validOutsideQuarkus("schema", "reader")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, list.statusCode(), list.body());
                assertTrue(list.body().contains("\"totalSize\":0"), list.body());
            }
        }
    }

    /** The refusal is one ERROR line that says what to run, and no stack trace follows it. */
    private static void assertRefused(String log, String reason) {
        List<String> errors = log.lines().filter(line -> line.contains(" ERROR ")).toList();
        assertTrue(errors.stream().anyMatch(line -> line.contains(reason) && line.contains("QUARKUS_INIT_AND_EXIT=true")), log);
        assertEquals(List.of(), log.lines().filter(line -> line.startsWith("\tat ")).toList(), log);
    }

    private static int newest(Statement sql) throws Exception {
        try (ResultSet rs = sql.executeQuery("SELECT max(version::int) FROM flyway_schema_history WHERE success")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
