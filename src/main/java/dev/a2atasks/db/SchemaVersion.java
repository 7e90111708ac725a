package dev.a2atasks.db;

import java.util.List;
import java.util.Optional;

/**
 * Which schema this build needs, and whether a database's migration history satisfies it. Pure
 * logic: {@link SchemaCheck} reads the history, this judges it.
 *
 * <p>Only an older schema is refused. A newer one is accepted, because migrations here only add
 * (tables, columns, indexes, triggers): during a rolling deployment the migrate job of the new
 * release runs while replicas of the old one still serve, and they must keep serving.
 */
public final class SchemaVersion {

    /** The newest migration under db/migration ({@code SchemaVersionUnitTest} keeps the two equal). */
    public static final int REQUIRED = 14;

    /** One row of Flyway's history table that carries a version (repeatable migrations carry none). */
    public record Applied(String version, boolean success) {
    }

    /** What the start-up check concludes: empty when the service may start, else the refusal to log. */
    public static Optional<String> refusal(int required, List<Applied> history) {
        if (history.isEmpty()) {
            return Optional.of("the database has no a2a-tasks schema (no migration recorded in flyway_schema_history); this build needs V"
                    + required + ". " + HOW_TO_MIGRATE);
        }
        for (Applied row : history) {
            if (!row.success()) {
                return Optional.of("migration V" + row.version() + " failed in this database (flyway_schema_history.success = false);"
                        + " repair it, then run the migration again. " + HOW_TO_MIGRATE);
            }
        }
        int newest = history.stream().mapToInt(row -> major(row.version())).max().getAsInt();
        if (newest < required) {
            return Optional.of("the database schema is at V" + newest + ", this build needs V" + required + ". " + HOW_TO_MIGRATE);
        }
        return Optional.empty();
    }

    /** The newest successfully applied version; -1 when none. */
    public static int newest(List<Applied> history) {
        return history.stream().filter(Applied::success).mapToInt(row -> major(row.version())).max().orElse(-1);
    }

    static final String HOW_TO_MIGRATE = "Migrate first: run this same build once with QUARKUS_INIT_AND_EXIT=true"
            + " (it migrates, then exits), or start it with QUARKUS_FLYWAY_MIGRATE_AT_START=true.";

    /** "9" and "9.1" are both major 9; a version that is not a number counts as 0 (never satisfies). */
    private static int major(String version) {
        String head = version.split("\\.", 2)[0].trim();
        try {
            return Integer.parseInt(head);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private SchemaVersion() {
    }
}
