package dev.a2atasks.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shared input grammar, without Quarkus: text every binding may carry, integers as int32 fields are written. */
class GrammarUnitTest {

    @Test
    void textWithoutNulOrLoneSurrogatesPasses() {
        assertNull(Grammar.textProblem("contextId", "ctx-1"));
        assertNull(Grammar.textProblem("contextId", "ünïcødé ✓ \uD83D\uDE00 (a pair)"));
        assertNull(Grammar.textProblem("contextId", "\uFFFD is a character like any other"));
        assertNull(Grammar.textProblem("contextId", null));
        assertNull(Grammar.textProblem("contextId", ""));
    }

    @Test
    void nulAndLoneSurrogatesAreNamedByField() {
        assertEquals("contextId must not contain NUL characters", Grammar.textProblem("contextId", "a\u0000b"));
        assertEquals("id must not contain NUL characters", Grammar.textProblem("id", "\u0000"));
        assertEquals("tenant must be valid UTF-8 text", Grammar.textProblem("tenant", "a\uD800"));
        assertEquals("tenant must be valid UTF-8 text", Grammar.textProblem("tenant", "\uDC00a"));
        assertEquals("tenant must be valid UTF-8 text", Grammar.textProblem("tenant", "\uDE00\uD83D")); // reversed pair
        assertEquals("tenant must be valid UTF-8 text", Grammar.textProblem("tenant", "\uD83D\uD83D"));
    }

    @Test
    void controlCharactersInIdentityText() {
        for (char c = 0; c < 0x20; c++) {
            assertTrue(Grammar.hasControlCharacter("t" + c), "U+" + Integer.toHexString(c));
        }
        assertTrue(Grammar.hasControlCharacter("t\u007f"));
        assertFalse(Grammar.hasControlCharacter("\"t1\""));
        assertFalse(Grammar.hasControlCharacter("t 1 é \u0080"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "1", "5", "100", "-1", "-5", "2147483647", "-2147483648" })
    void int32Accepted(String value) {
        assertEquals(Integer.valueOf(Integer.parseInt(value)), Grammar.int32(value));
        assertTrue(Grammar.isInteger(value));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "-", "+5", "05", "00", "-0", "-05", " 5", "5 ", "５", "٥", "5.0", "1e2", "0x10", "5a",
            "2147483648", "-2147483649", "99999999999999", "99999999999999999999999999" })
    void notInt32(String value) {
        assertNull(Grammar.int32(value), value);
    }

    @Test
    void integersOfAnySizeAreStillIntegers() {
        assertTrue(Grammar.isInteger("2147483648"));
        assertTrue(Grammar.isInteger("-99999999999999999999"));
        assertFalse(Grammar.isInteger("+5"));
        assertFalse(Grammar.isInteger("０"));
        assertFalse(Grammar.isInteger(null));
    }
}
