package dev.a2atasks.execution;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

class LeaseSweeperUnitTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");

    @Test
    void sweepsWhenTheDatabaseHasBeenThereAllAlong() {
        assertFalse(LeaseSweeper.held(false, null, NOW, LEASE));
    }

    @Test
    void holdsWhileTheDatabaseIsAway() {
        assertTrue(LeaseSweeper.held(true, null, NOW, LEASE));
        assertTrue(LeaseSweeper.held(true, NOW.minus(Duration.ofHours(1)), NOW, LEASE));
    }

    @Test
    void holdsForOneLeaseAfterTheDatabaseCameBackThenSweeps() {
        assertTrue(LeaseSweeper.held(false, NOW.minusSeconds(1), NOW, LEASE), "live runs have not had a renewal yet");
        assertTrue(LeaseSweeper.held(false, NOW.minus(LEASE).plusMillis(1), NOW, LEASE));
        assertFalse(LeaseSweeper.held(false, NOW.minus(LEASE), NOW, LEASE), "a lease after: an expired lease is a dead process again");
    }
}
