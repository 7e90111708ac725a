package dev.a2atasks.push;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import dev.a2atasks.paging.KeyRing;

/**
 * Seals the secrets of a webhook registration (its token and credentials) for storage, with the
 * service's key ring: AES-256-GCM under a key derived from the ring key for this purpose alone
 * (HMAC-SHA256 of the ring key and a label), so a page token and a stored secret never share a key.
 *
 * <pre>
 * sealed = version(1) | keyIdLength(1) | keyId | nonce(12) | AES-GCM(secret)
 * AAD    = the header | where the secret belongs (tenant, owner, task, registration, field), length-prefixed
 * </pre>
 *
 * The AAD binds a sealed value to its row and field: copied into another registration, or from
 * the credentials column into the token column, it no longer opens. Rotation: a new current key
 * seals from then on; values sealed with an older key open while that key stays in the ring.
 */
public final class SecretBox {

    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final byte[] LABEL = "a2a-tasks push secrets v1".getBytes(StandardCharsets.UTF_8);

    private final KeyRing ring;
    private final Map<String, SecretKey> derived = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    public SecretBox(KeyRing ring) {
        this.ring = ring;
    }

    /** Where a sealed value belongs; part of its authentication. */
    public record Place(String tenant, String owner, String taskId, String configId, String field) {
        byte[] bytes() {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
                DataOutputStream out = new DataOutputStream(bytes);
                for (String part : new String[] { tenant, owner, taskId, configId, field }) {
                    byte[] utf8 = part.getBytes(StandardCharsets.UTF_8);
                    out.writeInt(utf8.length);
                    out.write(utf8);
                }
                return bytes.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A stored secret that cannot be opened: its key left the ring, or the bytes were altered. */
    public static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    public String currentKeyId() {
        return ring.currentId();
    }

    public byte[] seal(String secret, Place place) {
        byte[] header = header(ring.currentId());
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key(ring.currentId()), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(header);
            cipher.updateAAD(place.bytes());
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(header.length + NONCE_BYTES + sealed.length).put(header).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot seal a secret", e);
        }
    }

    public String open(byte[] sealed, Place place) throws Unreadable {
        if (sealed.length < 2 || sealed[0] != VERSION) {
            throw new Unreadable("the stored secret has an unknown format");
        }
        int headerLength = 2 + (sealed[1] & 0xff);
        if (sealed.length < headerLength + NONCE_BYTES + TAG_BITS / 8) {
            throw new Unreadable("the stored secret is truncated");
        }
        String keyId = new String(sealed, 2, headerLength - 2, StandardCharsets.UTF_8);
        if (ring.find(keyId) == null) {
            throw new Unreadable("the stored secret was sealed with key '" + keyId + "', which is no longer in the key ring");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key(keyId), new GCMParameterSpec(TAG_BITS, sealed, headerLength, NONCE_BYTES));
            cipher.updateAAD(sealed, 0, headerLength);
            cipher.updateAAD(place.bytes());
            int from = headerLength + NONCE_BYTES;
            return new String(cipher.doFinal(sealed, from, sealed.length - from), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new Unreadable("the stored secret does not authenticate (altered, or moved from another registration)");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot open a secret", e);
        }
    }

    /** The key id a sealed value names, or null when it is not one of ours. */
    public static String keyIdOf(byte[] sealed) {
        if (sealed == null || sealed.length < 2 || sealed[0] != VERSION || sealed.length < 2 + (sealed[1] & 0xff)) {
            return null;
        }
        return new String(sealed, 2, sealed[1] & 0xff, StandardCharsets.UTF_8);
    }

    private SecretKey key(String keyId) {
        return derived.computeIfAbsent(keyId, id -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(ring.find(id).getEncoded(), "HmacSHA256"));
                byte[] bytes = mac.doFinal(LABEL);
                SecretKey key = new SecretKeySpec(bytes, "AES");
                Arrays.fill(bytes, (byte) 0);
                return key;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static byte[] header(String keyId) {
        byte[] id = keyId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + id.length).put(VERSION).put((byte) id.length).put(id).array();
    }
}
