package dev.a2atasks.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

/** Fills the service's own schema from bench/dataset.sql, set-based (no row-by-row API calls). */
final class Dataset {

    record Size(int bigTasks, int walkTasks, int otherTasks, int messagesPerTask, int longHistory) {
        int total() {
            return bigTasks + walkTasks + otherTasks + 2;
        }
    }

    static final Size DEFAULT = new Size(1_000_000, 100_000, 100_000, 2, 100_000);
    static final Size QUICK = new Size(30_000, 5_000, 5_000, 2, 5_000);
    /** Table o's, generated on one PostgreSQL and on Citus (where it takes longer: every row passes through the coordinator). */
    static final Size CITUS = new Size(200_000, 10_000, 10_000, 2, 10_000);

    private Dataset() {
    }

    /** Runs the generator; the schema must exist (the service migrates it at start-up). Returns seconds taken. */
    static double generate(String jdbcUrl, Size size) throws Exception {
        String sql = Files.readString(Path.of("bench/dataset.sql"));
        for (Map.Entry<String, Object> e : Map.<String, Object>of(
                "big_tasks", size.bigTasks(), "walk_tasks", size.walkTasks(), "other_tasks", size.otherTasks(),
                "messages_per_task", size.messagesPerTask(), "long_history", size.longHistory()).entrySet()) {
            sql = sql.replace("${" + e.getKey() + "}", e.getValue().toString());
        }
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            for (String statement : sql.replaceAll("(?m)^--.*$", "").split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }
}
