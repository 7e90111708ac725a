package dev.a2atasks.paging;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.function.Supplier;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import dev.a2atasks.error.A2AException;

/**
 * Seals and opens page tokens with AES-GCM: a token is authenticated (no client can forge or
 * edit a cursor) and encrypted (it reveals neither the cursor nor the total).
 *
 * <pre>
 * token    = base64url( version | keyIdLength | keyId | nonce(12) | AES-GCM(payload) )   AAD = the header
 * payload  = expiresAt(epoch s, 8) | binding(16) | statusTs(µs, 8) | totalSize(4) | taskId(UTF-8)
 * </pre>
 *
 * The key id travels in clear so a rotated-out key is told apart from a forged token. Each
 * failure has its own message, all reported as invalid params on {@code pageToken}.
 */
public final class PageTokenCodec {

    public static final String FIELD = "pageToken";
    /** Longer strings are not tokens we issued; they are refused before any decoding. */
    public static final int MAX_TOKEN_CHARS = 2048;

    static final String MALFORMED = "pageToken is malformed";
    static final String BAD_SIGNATURE = "pageToken signature is invalid";
    static final String UNKNOWN_KEY = "pageToken was sealed with a key that is no longer accepted; restart the listing without pageToken";
    static final String EXPIRED = "pageToken expired; restart the listing without pageToken";
    static final String OTHER_WALK = "pageToken was issued for a different caller or filter set";

    /** Why a token was refused, for metrics: each message above is one reason. */
    public enum Refusal {
        MALFORMED("malformed", PageTokenCodec.MALFORMED),
        SIGNATURE("signature", BAD_SIGNATURE),
        UNKNOWN_KEY("unknown_key", PageTokenCodec.UNKNOWN_KEY),
        EXPIRED("expired", PageTokenCodec.EXPIRED),
        OTHER_WALK("other_walk", PageTokenCodec.OTHER_WALK);

        private final String label;
        private final String message;

        Refusal(String label, String message) {
            this.label = label;
            this.message = message;
        }

        public String label() {
            return label;
        }

        /** The reason of a refusal this codec threw, or null for any other error. */
        public static Refusal of(A2AException error) {
            for (var violation : error.violations()) {
                if (FIELD.equals(violation.field())) {
                    for (Refusal refusal : values()) {
                        if (refusal.message.equals(violation.description())) {
                            return refusal;
                        }
                    }
                }
            }
            return null;
        }
    }

    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int FIXED_PAYLOAD_BYTES = 8 + WalkBinding.LENGTH + 8 + 4;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    /** Cipher lookup is not free and a Cipher is not thread-safe: one per thread, re-initialised per token. */
    private static final ThreadLocal<Cipher> AES_GCM = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    });

    private final KeyRing ring;
    private final Duration ttl;
    private final Supplier<Instant> clock;
    /**
     * Nonce source, made with the codec, which is made at run time: a native image must not carry
     * a generator seeded while it was built, which every copy of the binary would then share.
     */
    private final SecureRandom random = new SecureRandom();

    public PageTokenCodec(KeyRing ring, Duration ttl, Supplier<Instant> clock) {
        this.ring = ring;
        this.ttl = ttl;
        this.clock = clock;
    }

    public String seal(PageCursor cursor, WalkBinding binding) {
        byte[] id = cursor.taskId().getBytes(StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.allocate(FIXED_PAYLOAD_BYTES + id.length)
                .putLong(clock.get().plus(ttl).getEpochSecond())
                .put(binding.digest())
                .putLong(cursor.statusTimestampMicros())
                .putInt(cursor.totalSize())
                .put(id);
        byte[] header = header(ring.currentId());
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] sealed;
        try {
            Cipher cipher = AES_GCM.get();
            cipher.init(Cipher.ENCRYPT_MODE, ring.current(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(header);
            sealed = cipher.doFinal(payload.array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot seal a page token", e);
        }
        ByteBuffer token = ByteBuffer.allocate(header.length + NONCE_BYTES + sealed.length).put(header).put(nonce).put(sealed);
        return ENCODER.encodeToString(token.array());
    }

    public PageCursor open(String token, WalkBinding binding) {
        if (token.length() > MAX_TOKEN_CHARS) {
            throw invalid(MALFORMED);
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            throw invalid(MALFORMED);
        }
        if (raw.length < 2 || raw[0] != VERSION) {
            throw invalid(MALFORMED);
        }
        int keyIdLength = raw[1] & 0xff;
        int headerLength = 2 + keyIdLength;
        if (raw.length < headerLength + NONCE_BYTES + TAG_BITS / 8 + FIXED_PAYLOAD_BYTES) {
            throw invalid(MALFORMED);
        }
        String keyId = new String(raw, 2, keyIdLength, StandardCharsets.UTF_8);
        SecretKey key = ring.find(keyId);
        if (key == null) {
            throw invalid(UNKNOWN_KEY);
        }
        byte[] payload;
        try {
            Cipher cipher = AES_GCM.get();
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, headerLength, NONCE_BYTES));
            cipher.updateAAD(raw, 0, headerLength);
            int sealedFrom = headerLength + NONCE_BYTES;
            payload = cipher.doFinal(raw, sealedFrom, raw.length - sealedFrom);
        } catch (AEADBadTagException e) {
            throw invalid(BAD_SIGNATURE);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot open a page token", e);
        }
        // One spelling per token: the decoder also takes '=' padding and ignores the unused low
        // bits of the last character, so an authentic token is still refused unless it is spelled
        // exactly as the server writes it. (Checked after the tag, so a damaged token says so.)
        if (!ENCODER.encodeToString(raw).equals(token)) {
            throw invalid(MALFORMED);
        }
        ByteBuffer in = ByteBuffer.wrap(payload);
        long expiresAt = in.getLong();
        byte[] boundTo = new byte[WalkBinding.LENGTH];
        in.get(boundTo);
        long statusTs = in.getLong();
        int total = in.getInt();
        String taskId = new String(payload, in.position(), in.remaining(), StandardCharsets.UTF_8);
        if (clock.get().getEpochSecond() >= expiresAt) {
            throw invalid(EXPIRED);
        }
        if (!binding.matches(boundTo)) {
            throw invalid(OTHER_WALK);
        }
        return new PageCursor(statusTs, taskId, total);
    }

    private static byte[] header(String keyId) {
        byte[] id = keyId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + id.length).put(VERSION).put((byte) id.length).put(id).array();
    }

    private static A2AException invalid(String message) {
        return A2AException.invalidParam(FIELD, message);
    }
}
