package dev.a2atasks.support;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How PostgreSQL (or a Citus coordinator, {@link CitusProfile}) plans a statement the service
 * sends: prepared as sent (positional {@code $n} parameters; Hibernate's named ones are numbered
 * in order of first use, its ordinal {@code ?n} become {@code $n}), explained with the caller's
 * values, without running it.
 */
public final class Plans {

    private static final Pattern NAMED = Pattern.compile("(?<![:\\w]):([A-Za-z]\\w*)");
    private static final Pattern TASK_COUNT = Pattern.compile("Task Count: (\\d+)");
    private static int prepared;

    private Plans() {
    }

    /** The plan's text, a line per node, indentation kept. {@code args}: SQL literals, comma-separated. */
    public static String explain(Statement s, String sql, String args) throws SQLException {
        String name = "plan_" + prepared++;
        s.execute("PREPARE " + name + " AS " + positional(sql));
        try (ResultSet rs = s.executeQuery("EXPLAIN (COSTS OFF) EXECUTE " + name + "(" + args + ")")) {
            StringBuilder plan = new StringBuilder();
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
            return plan.toString();
        } finally {
            s.execute("DEALLOCATE " + name);
        }
    }

    /** Citus: every "Task Count" of the plan and its subplans: one entry per distributed step, the number of shards it reaches. */
    public static List<Integer> taskCounts(String plan) {
        List<Integer> counts = new ArrayList<>();
        Matcher m = TASK_COUNT.matcher(plan);
        while (m.find()) {
            counts.add(Integer.parseInt(m.group(1)));
        }
        return counts;
    }

    /** The arguments of a statement with named parameters, in the order {@link #explain} numbers them. */
    public static String args(String sql, java.util.Map<String, String> named) {
        List<String> args = new ArrayList<>();
        Matcher m = NAMED.matcher(sql);
        List<String> seen = new ArrayList<>();
        while (m.find()) {
            if (!seen.contains(m.group(1))) {
                seen.add(m.group(1));
                String value = named.get(m.group(1));
                if (value == null) {
                    throw new IllegalArgumentException("no value for :" + m.group(1));
                }
                args.add(value);
            }
        }
        return String.join(", ", args);
    }

    /** A statement with named parameters ({@code :tenant}) as one with positional ones, numbered by first use. */
    public static String positional(String sql) {
        List<String> names = new ArrayList<>();
        // JDBC-style ordinal parameters (?1) are PostgreSQL's $1 already.
        return NAMED.matcher(sql.replaceAll("\\?(\\d+)", "\\$$1")).replaceAll(m -> {
            int i = names.indexOf(m.group(1));
            if (i < 0) {
                names.add(m.group(1));
                i = names.size() - 1;
            }
            return "\\$" + (i + 1);
        });
    }
}
