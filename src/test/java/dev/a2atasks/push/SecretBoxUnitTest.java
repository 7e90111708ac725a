package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.a2atasks.paging.KeyRing;

/** Sealing of webhook secrets: round trip, binding to the row and field, tampering, rotation. */
class SecretBoxUnitTest {

    private static final String K1 = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String K2 = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    private static final SecretBox.Place PLACE = new SecretBox.Place("t", "alice", "task-1", "cfg-1", "credentials");

    private static SecretBox box(String current, Map<String, String> keys) {
        return new SecretBox(KeyRing.fromConfig(Optional.of(current), keys));
    }

    @Test
    void roundTripAndNothingInClear() throws Exception {
        SecretBox box = box("k1", Map.of("k1", K1));
        byte[] sealed = box.seal("s3cret-token-value", PLACE);
        assertEquals("s3cret-token-value", box.open(sealed, PLACE));
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("s3cret"), "the secret is not in the sealed bytes");
        assertNotEquals(Arrays.toString(sealed), Arrays.toString(box.seal("s3cret-token-value", PLACE)), "a fresh nonce each time");
        assertEquals("k1", SecretBox.keyIdOf(sealed));
    }

    @Test
    void aSealedValueOpensOnlyInItsOwnRowAndField() {
        SecretBox box = box("k1", Map.of("k1", K1));
        byte[] sealed = box.seal("secret", PLACE);
        for (SecretBox.Place elsewhere : new SecretBox.Place[] {
                new SecretBox.Place("t", "alice", "task-1", "cfg-1", "token"),
                new SecretBox.Place("t", "alice", "task-1", "cfg-2", "credentials"),
                new SecretBox.Place("t", "mallory", "task-1", "cfg-1", "credentials"),
                new SecretBox.Place("t", "alice", "task-2", "cfg-1", "credentials") }) {
            SecretBox.Unreadable e = assertThrows(SecretBox.Unreadable.class, () -> box.open(sealed, elsewhere), elsewhere.toString());
            assertTrue(e.getMessage().contains("does not authenticate"), e.getMessage());
        }
    }

    @Test
    void anAlteredValueDoesNotOpen() {
        SecretBox box = box("k1", Map.of("k1", K1));
        byte[] sealed = box.seal("secret", PLACE);
        for (int i = 0; i < sealed.length; i++) {
            byte[] altered = sealed.clone();
            altered[i] ^= 1;
            assertThrows(SecretBox.Unreadable.class, () -> box.open(altered, PLACE), "byte " + i);
        }
        assertThrows(SecretBox.Unreadable.class, () -> box.open(Arrays.copyOf(sealed, 10), PLACE));
    }

    @Test
    void rotationOpensOldValuesWhileTheirKeyStaysInTheRing() throws Exception {
        byte[] old = box("k1", Map.of("k1", K1)).seal("secret", PLACE);
        SecretBox rotated = box("k2", Map.of("k1", K1, "k2", K2));
        assertEquals("secret", rotated.open(old, PLACE));
        assertEquals("k2", SecretBox.keyIdOf(rotated.seal("secret", PLACE)));
        SecretBox retired = box("k2", Map.of("k2", K2));
        SecretBox.Unreadable e = assertThrows(SecretBox.Unreadable.class, () -> retired.open(old, PLACE));
        assertTrue(e.getMessage().contains("'k1'"), e.getMessage());
    }
}
