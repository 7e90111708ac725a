package dev.a2atasks.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.a2atasks.db.SchemaVersion.Applied;

/** The start-up schema verdict, on histories written by hand; and the build's required version against its migrations. */
class SchemaVersionUnitTest {

    @Test
    void theRequiredVersionIsTheNewestMigration() throws IOException {
        Pattern versioned = Pattern.compile("V(\\d+)__.+\\.sql");
        int newest;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            newest = files.map(f -> versioned.matcher(f.getFileName().toString())).filter(Matcher::matches)
                    .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElseThrow();
        }
        assertEquals(newest, SchemaVersion.REQUIRED, "SchemaVersion.REQUIRED must name the newest migration");
    }

    @Test
    void aCurrentOrNewerSchemaIsAccepted() {
        assertEquals(Optional.empty(), SchemaVersion.refusal(9, history(9)));
        assertEquals(Optional.empty(), SchemaVersion.refusal(9, history(11)));
        assertEquals(Optional.empty(), SchemaVersion.refusal(9, List.of(new Applied("9.1", true), new Applied("8", true))));
        assertEquals(11, SchemaVersion.newest(history(11)));
    }

    @Test
    void anOlderSchemaIsRefusedNamingBothVersionsAndTheFix() {
        String refusal = SchemaVersion.refusal(9, history(8)).orElseThrow();
        assertTrue(refusal.startsWith("the database schema is at V8, this build needs V9."), refusal);
        assertTrue(refusal.contains("QUARKUS_INIT_AND_EXIT=true"), refusal);
        // Versions compare as numbers, not as text ("10" > "9").
        assertTrue(SchemaVersion.refusal(10, history(9)).isPresent());
        assertEquals(Optional.empty(), SchemaVersion.refusal(9, history(10)));
    }

    @Test
    void anEmptyHistoryIsRefused() {
        String refusal = SchemaVersion.refusal(9, List.of()).orElseThrow();
        assertTrue(refusal.startsWith("the database has no a2a-tasks schema"), refusal);
        assertEquals(-1, SchemaVersion.newest(List.of()));
    }

    @Test
    void aFailedMigrationIsRefusedEvenWhenLaterOnesSucceeded() {
        String refusal = SchemaVersion.refusal(9, List.of(new Applied("9", true), new Applied("10", false))).orElseThrow();
        assertTrue(refusal.startsWith("migration V10 failed in this database"), refusal);
    }

    @Test
    void aVersionThatIsNotANumberNeverSatisfies() {
        assertTrue(SchemaVersion.refusal(9, List.of(new Applied("latest", true))).isPresent());
    }

    private static List<Applied> history(int upTo) {
        return java.util.stream.IntStream.rangeClosed(1, upTo).mapToObj(v -> new Applied(Integer.toString(v), true)).toList();
    }
}
