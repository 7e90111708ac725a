package dev.a2atasks.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.support.ApiException;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.TaskApi;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Seeded-random mutations of real page tokens, replayed on every binding: a bit flipped in every
 * byte, a character changed at every position, every truncation, extensions, other spellings of
 * the same bytes (padding, the standard alphabet, unused trailing bits), pieces swapped between
 * real tokens, and real tokens used by another caller or with other filters. None is accepted;
 * each is refused as invalid params on pageToken.
 */
@QuarkusTest
class PageTokenMutationTest extends BindingTest {

    private static final String TENANT = "PageTokenMutationTest";
    private static final long SEED = 20261202L;
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private final String alice = Tokens.valid(TENANT, "alice");
    private final String bob = Tokens.valid(TENANT, "bob");
    /** Each mutated token with the caller and filters to present it with. */
    private final List<Map.Entry<String, Map<String, String>>> mutations = new ArrayList<>();

    /** Built on first use, inside a test: the HTTP client knows the service's port only then. */
    private void mutate() {
        if (!mutations.isEmpty()) {
            return;
        }
        db.clearTenant(TENANT);
        Instant base = Instant.parse("2026-04-01T00:00:00Z");
        for (int i = 0; i < 8; i++) {
            db.insertTask(TENANT, "alice", "m-" + i, "ctx-" + (i % 2), i % 2 == 0 ? "TASK_STATE_WORKING" : "TASK_STATE_COMPLETED",
                    base.plusSeconds(i));
            db.insertTask(TENANT, "bob", "b-" + i, "ctx", "TASK_STATE_WORKING", base.plusSeconds(i));
        }
        TaskApi rest = api("HTTP+JSON");
        String plain = rest.list(alice, Map.of("pageSize", "2")).getNextPageToken();
        String filtered = rest.list(alice, Map.of("pageSize", "1", "status", "TASK_STATE_WORKING")).getNextPageToken();
        String bobs = rest.list(bob, Map.of("pageSize", "2")).getNextPageToken();
        Map<String, String> none = Map.of();
        Random random = new Random(SEED);
        Set<String> tokens = new LinkedHashSet<>();
        byte[] raw = Base64.getUrlDecoder().decode(plain);
        for (int i = 0; i < raw.length; i++) { // one bit flipped in every byte
            byte[] flipped = raw.clone();
            flipped[i] ^= (byte) (1 << random.nextInt(8));
            tokens.add(encode(flipped));
        }
        for (int i = 0; i < plain.length(); i++) { // another character at every position
            char c;
            do {
                c = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
            } while (c == plain.charAt(i));
            tokens.add(plain.substring(0, i) + c + plain.substring(i + 1));
        }
        for (int i = 1; i < plain.length(); i++) { // every truncation ("" would mean: start a walk)
            tokens.add(plain.substring(0, i));
        }
        for (int n = 1; n <= 40; n++) { // extensions
            StringBuilder extra = new StringBuilder();
            for (int k = 0; k < n; k++) {
                extra.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            tokens.add(plain + extra);
        }
        // The same bytes spelled otherwise.
        List<String> spellings = new ArrayList<>(List.of(plain + "=", plain + "==", Base64.getUrlEncoder().encodeToString(raw),
                Base64.getEncoder().withoutPadding().encodeToString(raw), " " + plain, plain + " ", plain + "\n"));
        int unusedBits = (6 - (raw.length * 8) % 6) % 6;
        if (unusedBits > 0) {
            int last = ALPHABET.indexOf(plain.charAt(plain.length() - 1));
            for (int v = 1; v < (1 << unusedBits); v++) {
                spellings.add(plain.substring(0, plain.length() - 1) + ALPHABET.charAt(last ^ v));
            }
        }
        tokens.addAll(spellings);
        // Pieces of real tokens swapped: header, nonce and sealed payload from different tokens.
        byte[] other = Base64.getUrlDecoder().decode(filtered);
        byte[] third = Base64.getUrlDecoder().decode(bobs);
        int header = 2 + (raw[1] & 0xff);
        for (byte[][] parts : List.of(new byte[][] { raw, other, raw }, new byte[][] { raw, raw, other }, new byte[][] { other, raw, raw },
                new byte[][] { raw, third, raw }, new byte[][] { third, raw, third }, new byte[][] { raw, raw, third })) {
            tokens.add(encode(concat(slice(parts[0], 0, header), slice(parts[1], header, header + 12),
                    slice(parts[2], header + 12, parts[2].length))));
        }
        while (tokens.size() < 1_000) { // random mixes: several flips, cuts and splices at once
            byte[] mixed = (random.nextBoolean() ? raw : other).clone();
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
                mixed[random.nextInt(mixed.length)] ^= (byte) (1 + random.nextInt(255));
            }
            if (random.nextInt(4) == 0) {
                mixed = slice(mixed, 0, 1 + random.nextInt(mixed.length - 1));
            }
            tokens.add(encode(mixed));
        }
        tokens.remove(plain);
        tokens.forEach(token -> mutations.add(Map.entry(token, none)));
        // Real tokens, presented by someone else or with other filters.
        mutations.add(Map.entry(plain, Map.of("caller", "bob")));
        mutations.add(Map.entry(bobs, Map.of("caller", "alice")));
        mutations.add(Map.entry(plain, Map.of("status", "TASK_STATE_WORKING")));
        mutations.add(Map.entry(filtered, Map.of()));
        mutations.add(Map.entry(filtered, Map.of("status", "TASK_STATE_COMPLETED")));
        mutations.add(Map.entry(plain, Map.of("contextId", "ctx-0")));
        mutations.add(Map.entry(plain, Map.of("historyLength", "3")));
        mutations.add(Map.entry(plain, Map.of("includeArtifacts", "true")));
        mutations.add(Map.entry(plain, Map.of("tenant", TENANT, "caller", "other-tenant")));
        mutations.add(Map.entry(spellings.get(0), Map.of("expect", "pageToken is malformed")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void noMutationIsAccepted(String binding) {
        mutate();
        TaskApi api = api(binding);
        int refused = 0;
        for (Map.Entry<String, Map<String, String>> mutation : mutations) {
            Map<String, String> params = new HashMap<>(mutation.getValue());
            String caller = params.remove("caller");
            String expected = params.remove("expect");
            String bearer = "bob".equals(caller) ? bob : "other-tenant".equals(caller) ? Tokens.valid(TENANT + "-x", "alice") : alice;
            params.put("pageSize", "2");
            params.put("pageToken", mutation.getKey());
            try {
                api.list(bearer, params);
                fail(binding + " accepted the mutated token " + mutation.getKey() + " with " + mutation.getValue());
            } catch (ApiException e) {
                assertEquals("INVALID_ARGUMENT", e.error().status(), mutation.getKey());
                assertEquals(List.of("pageToken"), e.error().fields(), mutation.getKey());
                if (expected != null) {
                    assertEquals(expected, e.error().message(), mutation.getKey());
                }
                refused++;
            }
        }
        assertTrue(refused >= 1_000, "mutations refused: " + refused);
    }

    @org.junit.jupiter.api.Test
    void everySpellingOfAValidTokenButItsOwnIsMalformed() {
        mutate();
        TaskApi api = api("GRPC");
        String plain = api.list(alice, Map.of("pageSize", "2")).getNextPageToken();
        byte[] raw = Base64.getUrlDecoder().decode(plain);
        for (String spelling : List.of(plain + "=", plain + "==", Base64.getUrlEncoder().encodeToString(raw))) {
            if (spelling.equals(plain)) {
                continue;
            }
            ApiException e = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class,
                    () -> api.list(alice, Map.of("pageSize", "2", "pageToken", spelling)));
            assertEquals("pageToken is malformed", e.error().message(), spelling);
        }
        assertEquals(2, api.list(alice, Map.of("pageSize", "2", "pageToken", plain)).getTasksCount());
    }

    private static String encode(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static byte[] slice(byte[] bytes, int from, int to) {
        return java.util.Arrays.copyOfRange(bytes, Math.min(from, bytes.length), Math.min(to, bytes.length));
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
