package dev.a2atasks.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** An invalid-params error lists at most 20 violations and counts the rest: its size has a bound. */
class InvalidParamsUnitTest {

    @Test
    void tenThousandViolationsAreTwentyListedAndTheRestCounted() {
        List<FieldViolation> many = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            many.add(new FieldViolation("message.parts[" + i + "]", "message.parts[" + i + "] must hold exactly one of text, raw, url or data"));
        }
        A2AException e = A2AException.invalidParams(many);
        assertEquals(A2AException.InvalidParams.MAX_LISTED, e.violations().size());
        assertEquals("message.parts[19]", e.violations().get(19).field());
        assertTrue(e.getMessage().endsWith("; and 9980 more"), e.getMessage());
        assertTrue(e.getMessage().length() < 4096, "message of " + e.getMessage().length() + " characters");
    }

    @Test
    void twentyOrFewerAreAllListed() {
        List<FieldViolation> twenty = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            twenty.add(new FieldViolation("f" + i, "f" + i + " is wrong"));
        }
        A2AException e = A2AException.invalidParams(twenty);
        assertEquals(20, e.violations().size());
        assertTrue(e.getMessage().endsWith("f19 is wrong"), e.getMessage());
    }
}
