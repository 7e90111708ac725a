package dev.a2atasks.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.Tokens;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Issue 16: a packaged server stopped (SIGTERM) while its mirror is in the middle of a sync logs
 * no ERROR and no stack trace, only that the sync stopped and resumes from its mark. The mirror
 * copies the server's own tasks (another scope) five per page, so a sync lasts long enough to be
 * interrupted. Runs after {@code package}, in {@code verify}.
 */
class MirrorShutdownIT {

    private static final int TASKS = 3000;

    @Test
    void aSyncInterruptedByShutdownLogsNoErrorAndNoTrace() throws Exception {
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start()) {
            String jdbc = "jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres";
            PackagedServer server = PackagedServer.start("mirror-shutdown", database, Map.of(
                    "a2a.mirror.self.endpoint", "127.0.0.1:{port}",
                    "a2a.mirror.self.plaintext", "true",
                    "a2a.mirror.self.bearer-token", Tokens.validOutsideQuarkus("source", "remote"),
                    "a2a.mirror.self.tenant", "copies",
                    "a2a.mirror.self.owner", "copier",
                    "a2a.mirror.self.page-size", "5",
                    "a2a.mirror.self.interval", "1s"));
            try (Connection db = DriverManager.getConnection(jdbc, "postgres", "postgres"); Statement sql = db.createStatement()) {
                sql.execute("INSERT INTO tasks (tenant, owner, id, state, status_ts) SELECT 'source', 'remote', 't' || g,"
                        + " 'TASK_STATE_WORKING', now() - g * interval '1 second' FROM generate_series(1, " + TASKS + ") AS g");
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                long copied;
                while ((copied = count(sql)) < 50) {
                    assertTrue(System.nanoTime() < deadline, "the mirror started copying");
                    Thread.sleep(50);
                }
                server.process().destroy(); // SIGTERM, mid-sync
                assertTrue(server.process().waitFor(30, TimeUnit.SECONDS), "stopped");
                assertTrue(count(sql) < TASKS, "the sync was still running when the server stopped (" + copied + " copied)");
            } finally {
                server.close();
            }
            List<String> log = Files.readAllLines(server.log());
            String text = String.join("\n", log);
            assertEquals(List.of(), log.stream().filter(line -> line.contains(" ERROR ") || line.startsWith("\tat ")
                    || line.startsWith("Caused by")).toList(), text);
            assertTrue(text.contains("Mirror self: sync stopped by shutdown"), text);
        }
    }

    private static long count(Statement sql) throws Exception {
        try (ResultSet rs = sql.executeQuery("SELECT count(*) FROM tasks WHERE tenant = 'copies'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
