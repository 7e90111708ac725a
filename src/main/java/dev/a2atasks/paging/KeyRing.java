package dev.a2atasks.paging;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/** The page-token keys: one current key that seals, every key in the ring opens. */
public final class KeyRing {

    private final String currentId;
    private final Map<String, SecretKey> keys;

    public KeyRing(String currentId, Map<String, SecretKey> keys) {
        if (!keys.containsKey(currentId)) {
            throw new IllegalArgumentException("The current page-token key '" + currentId + "' is not in the key ring");
        }
        if (currentId.getBytes(StandardCharsets.UTF_8).length > 64) {
            throw new IllegalArgumentException("Page-token key ids are at most 64 bytes");
        }
        this.currentId = currentId;
        this.keys = Map.copyOf(keys);
    }

    /** Builds the ring from configuration; {@code keys} values are base64 AES keys. */
    public static KeyRing fromConfig(Optional<String> currentId, Map<String, String> encodedKeys) {
        Map<String, SecretKey> keys = new LinkedHashMap<>();
        encodedKeys.forEach((id, encoded) -> keys.put(id, aesKey(id, encoded)));
        String current = currentId.orElseGet(() -> {
            if (keys.size() != 1) {
                throw new IllegalArgumentException("Set a2a.page-token.current-key-id: the ring has " + keys.size() + " keys");
            }
            return keys.keySet().iterator().next();
        });
        return new KeyRing(current, keys);
    }

    public static KeyRing generated() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return new KeyRing("generated", Map.of("generated", new SecretKeySpec(key, "AES")));
    }

    private static SecretKey aesKey(String id, String encoded) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(encoded.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Page-token key '" + id + "' is not valid base64");
        }
        if (bytes.length != 16 && bytes.length != 24 && bytes.length != 32) {
            throw new IllegalArgumentException("Page-token key '" + id + "' must be 16, 24 or 32 bytes, not " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }

    public String currentId() {
        return currentId;
    }

    public SecretKey current() {
        return keys.get(currentId);
    }

    /** The key with this id, or null when it is not (or no longer) in the ring. */
    public SecretKey find(String id) {
        return keys.get(id);
    }
}
