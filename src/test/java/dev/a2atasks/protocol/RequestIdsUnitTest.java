package dev.a2atasks.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RequestIdsUnitTest {

    @AfterEach
    void clear() {
        MDC.remove(RequestIds.MDC_KEY);
    }

    @Test
    void aFreshIdIsARandomVersion4UuidAndNeverRepeats() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = RequestIds.fresh();
            UUID parsed = UUID.fromString(id);
            assertEquals(4, parsed.version(), id);
            assertEquals(2, parsed.variant(), id);
            assertEquals(parsed.toString(), id);
            assertTrue(seen.add(id), "repeated: " + id);
        }
    }

    @Test
    void aCallersPlainIdIsKeptAndAnythingElseReplaced() {
        assertEquals("req-42:a.b_c", RequestIds.begin("req-42:a.b_c"));
        assertEquals("req-42:a.b_c", MDC.get(RequestIds.MDC_KEY));
        for (String unusable : new String[] { null, "", "has space", "new\nline", "x".repeat(129), "é" }) {
            String id = RequestIds.begin(unusable);
            assertNotEquals(unusable, id);
            assertEquals(4, UUID.fromString(id).version());
            assertEquals(id, MDC.get(RequestIds.MDC_KEY));
        }
    }
}
