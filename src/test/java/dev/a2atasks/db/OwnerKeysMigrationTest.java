package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.test.junit.QuarkusTest;

/**
 * V13 on a store that already holds tasks: the migrations up to V12 build a schema of their own
 * beside the service's, rows go in as V12 wrote them, then V13 runs. Every message and artifact
 * gets its task's owner, the new keys refuse a child under another owner than its task's, and the
 * previous release's writes (no owner; its artifact upsert's arbiter) still work.
 * Connections of its own (never the service's pool): their search path points at the schema.
 */
@QuarkusTest
class OwnerKeysMigrationTest {

    private static final String SCHEMA = "v13_upgrade";

    @Test
    void existingMessagesAndArtifactsTakeTheirTasksOwner() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
        flyway("12").migrate();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("""
                    INSERT INTO tasks (tenant, owner, id, state, status_ts)
                    VALUES ('t', 'alice', 'a1', 'TASK_STATE_WORKING', now()), ('t', 'bob', 'b1', 'TASK_STATE_WORKING', now())""");
            s.execute("""
                    INSERT INTO messages (task_pk, seq, message_id, role)
                    SELECT pk, g, id || '-' || g, 'ROLE_USER' FROM tasks, generate_series(0, 2) AS g""");
            s.execute("INSERT INTO artifacts (task_pk, artifact_id, ord) SELECT pk, 'out', 0 FROM tasks");
        }

        flyway("13").migrate();

        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertEquals("alice:3 bob:3", text(s, "SELECT string_agg(m.owner || ':' || m.n, ' ' ORDER BY m.owner) FROM"
                    + " (SELECT owner, count(*) AS n FROM messages GROUP BY owner) AS m"));
            assertEquals(0, count(s, "SELECT count(*) FROM messages m JOIN tasks t ON t.pk = m.task_pk WHERE m.owner <> t.owner"));
            assertEquals(0, count(s, "SELECT count(*) FROM artifacts a JOIN tasks t ON t.pk = a.task_pk WHERE a.owner <> t.owner"));
            assertEquals(2, count(s, "SELECT count(*) FROM artifacts"));
            // A child naming its task under another owner has no task to belong to.
            SQLException foreign = assertThrows(SQLException.class, () -> s.execute(
                    "INSERT INTO messages (task_pk, owner, seq, message_id, role) SELECT pk, 'bob', 9, 'x', 'ROLE_USER' FROM tasks WHERE owner = 'alice'"));
            assertEquals("23503", foreign.getSQLState(), foreign.getMessage());
            // A replica of the previous release, still serving during the roll-out, writes without an owner.
            s.execute("INSERT INTO messages (task_pk, seq, message_id, role) SELECT pk, 3, 'old', 'ROLE_USER' FROM tasks WHERE owner = 'alice'");
            s.execute("""
                    INSERT INTO artifacts AS a (task_pk, artifact_id, ord, parts) SELECT pk, 'out', 1, '[{"text":"x"}]' FROM tasks
                    WHERE owner = 'alice' ON CONFLICT (task_pk, artifact_id) DO UPDATE SET parts = a.parts || EXCLUDED.parts""");
            assertEquals("alice", text(s, "SELECT owner FROM messages WHERE message_id = 'old'"));
            assertEquals(1, count(s, "SELECT jsonb_array_length(a.parts) FROM artifacts a JOIN tasks t ON t.pk = a.task_pk"
                    + " WHERE t.owner = 'alice'"));
            // Deleting a task still takes its children with it.
            s.execute("DELETE FROM tasks WHERE owner = 'alice'");
            assertEquals(3, count(s, "SELECT count(*) FROM messages"));
            assertEquals(1, count(s, "SELECT count(*) FROM artifacts"));
        } finally {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            }
        }
    }

    private static Flyway flyway(String target) {
        Config config = ConfigProvider.getConfig();
        return Flyway.configure().dataSource(url(config), user(config), password(config)).schemas(SCHEMA)
                .locations("classpath:db/migration").target(target).load();
    }

    /** A connection of the test's own whose unqualified names are the schema's (it exists once Flyway made it). */
    private static Connection connect() throws SQLException {
        Config config = ConfigProvider.getConfig();
        Connection c = DriverManager.getConnection(url(config), user(config), password(config));
        try (Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + SCHEMA);
        }
        return c;
    }

    private static String url(Config config) {
        return config.getValue("quarkus.datasource.jdbc.url", String.class);
    }

    private static String user(Config config) {
        return config.getOptionalValue("quarkus.datasource.username", String.class).orElse("postgres");
    }

    private static String password(Config config) {
        return config.getOptionalValue("quarkus.datasource.password", String.class).orElse("");
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String text(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
