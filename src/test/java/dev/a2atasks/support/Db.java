package dev.a2atasks.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;

import io.agroal.api.AgroalDataSource;

/**
 * Direct SQL for tests: fast set-up of rows, and PostgreSQL's own statement statistics
 * (pg_stat_statements), which count what the service really sent to the database.
 */
public final class Db {

    private final AgroalDataSource dataSource;

    public Db(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Closes every connection of the test's JDBC pool: a test that stops PostgreSQL calls it first,
     * so that the pool's first use after the restart does not meet a dead connection (agroal
     * logs each at WARN, which a test counting the service's warnings would charge to the service).
     */
    public void closeConnections() {
        dataSource.flush(AgroalDataSource.FlushMode.ALL);
    }

    /**
     * Runs one statement. One that PostgreSQL chose to break a deadlock with (40P01) is run again,
     * a few times, as any client would: the service's own workers lock the rows a test sets up or
     * cleans away (a push worker recording its attempts, say), in an order of their own.
     */
    public void execute(String sql) {
        for (int attempt = 1;; attempt++) {
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute(sql);
                return;
            } catch (SQLException e) {
                if (!"40P01".equals(e.getSQLState()) || attempt == 3) {
                    throw failed(sql, e);
                }
            }
        }
    }

    /** The statement and PostgreSQL's answer, which a test's summary line then shows. */
    private static IllegalStateException failed(String sql, SQLException e) {
        return new IllegalStateException(sql + " (" + e.getSQLState() + ": " + e.getMessage() + ")", e);
    }

    public long queryLong(String sql) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    public String queryText(String sql) {
        StringBuilder text = new StringBuilder();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                text.append(rs.getString(1)).append('\n');
            }
            return text.toString();
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /** Removes every task of a tenant (messages and artifacts follow by cascade). */
    public void clearTenant(String tenant) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement("DELETE FROM tasks WHERE tenant = ?")) {
            s.setString(1, tenant);
            s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Inserts one task and returns its row key. */
    public long insertTask(String tenant, String owner, String id, String contextId, String state, Instant statusTs) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(
                "INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts) VALUES (?, ?, ?, ?, ?, ?) RETURNING pk")) {
            s.setString(1, tenant);
            s.setString(2, owner);
            s.setString(3, id);
            s.setString(4, contextId);
            s.setString(5, state);
            s.setTimestamp(6, Timestamp.from(statusTs));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Gives a task {@code count} text messages "m0".."m{count-1}", alternating user and agent. */
    /**
     * A WORKING task {@code t1} of {@code owner} with one event (seq 0) owed to its registration
     * {@code hook} (a TEST-NET address no delivery reaches), due now; leased to {@code leaseOwner}
     * for an hour, or free to claim when it is null. Returns the task's pk.
     */
    public long insertOwedDelivery(String tenant, String owner, String leaseOwner) {
        long pk = insertTask(tenant, owner, "t1", "", "TASK_STATE_WORKING", Instant.now());
        execute("INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload) VALUES ('" + tenant + "', '" + owner
                + "', 't1', 0, 'STATUS_UPDATE', '{}')");
        execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) VALUES ('" + tenant + "', '" + owner
                + "', 't1', 'hook', 'http://192.0.2.1/hook', now())");
        execute("INSERT INTO push_outbox (tenant, owner, task_id, config_id, event_seq, next_attempt_at, lease_owner, lease_expires_at,"
                + " created_at) VALUES ('" + tenant + "', '" + owner + "', 't1', 'hook', 0, now(), "
                + (leaseOwner == null ? "NULL, NULL" : "'" + leaseOwner + "', now() + interval '1 hour'") + ", now())");
        return pk;
    }

    public void insertMessages(long taskPk, int count) {
        execute("INSERT INTO messages (task_pk, owner, seq, message_id, role, parts) "
                + "SELECT t.pk, t.owner, g, 'm' || g, CASE WHEN g % 2 = 0 THEN 'ROLE_USER' ELSE 'ROLE_AGENT' END, "
                + "jsonb_build_array(jsonb_build_object('text', 'message ' || g)) FROM tasks t, generate_series(0, " + (count - 1) + ") AS g"
                + " WHERE t.pk = " + taskPk);
        execute("UPDATE tasks SET next_seq = " + count + " WHERE pk = " + taskPk);
    }

    public void insertArtifact(long taskPk, String artifactId, int ord) {
        execute("INSERT INTO artifacts (task_pk, owner, artifact_id, ord, name, parts) SELECT pk, owner, '" + artifactId + "', "
                + ord + ", 'artifact " + artifactId + "', '[{\"text\": \"content of " + artifactId + "\"}]' FROM tasks WHERE pk = " + taskPk);
    }

    public void resetStatementStatistics() {
        execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        execute("SELECT pg_stat_statements_reset()");
    }

    /** How many times statements whose text matches the SQL LIKE pattern ran since the last reset. */
    /** Calls of statements matching this pattern, case-insensitively (Hibernate writes its SQL in lower case). */
    public long statementCalls(String likePattern) {
        return queryLong("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query ILIKE '"
                + likePattern.replace("'", "''") + "'");
    }

    /** Statements the read path sends: task pages, counts, history tails, artifacts (the last through Panache). */
    public long readPathStatements() {
        return statementCalls("SELECT pk, id, context_id%FROM tasks%") + statementCalls("SELECT count(*)%FROM tasks%")
                + statementCalls("%FROM unnest(%messages%") + statementCalls("%FROM artifacts%");
    }

    /**
     * Statements that took a walk's totalSize: a first page that read the counters' sum with its
     * rows, or a count of a catch-up window. The patterns hold no constant: pg_stat_statements
     * shows a statement's constants as $n when it was first planned after the reset, and as
     * written when its plan was cached before.
     */
    public long totalSizeStatements() {
        return statementCalls("SELECT count(*)%FROM tasks%") + statementCalls("SELECT pk, id, context_id%FROM task_counts%");
    }
}
