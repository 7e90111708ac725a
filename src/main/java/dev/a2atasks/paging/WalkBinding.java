package dev.a2atasks.paging;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A digest of everything a page token is only valid for: the caller and the effective filter
 * set. Two requests continue the same walk exactly when their bindings are equal. pageSize is
 * deliberately not part of it: changing it mid-walk changes only how the same sequence is cut.
 */
public final class WalkBinding {

    static final int LENGTH = 16;
    private final byte[] digest;

    private WalkBinding(byte[] digest) {
        this.digest = digest;
    }

    /** Each value is length-prefixed, so no two different inputs can encode alike. */
    public static WalkBinding of(String tenant, String subject, String contextId, String status,
            Long statusTimestampAfterMicros, int historyLength, boolean includeArtifacts) {
        return digest(out -> {
            out.writeByte(1); // layout version: ListTasks walks
            writeNullable(out, tenant);
            writeNullable(out, subject);
            writeNullable(out, contextId);
            writeNullable(out, status);
            out.writeBoolean(statusTimestampAfterMicros != null);
            out.writeLong(statusTimestampAfterMicros == null ? 0 : statusTimestampAfterMicros);
            out.writeInt(historyLength);
            out.writeBoolean(includeArtifacts);
        });
    }

    /**
     * A walk over one task's webhook registrations: bound to the caller and the task. Its own
     * layout version keeps it apart from every ListTasks binding, so neither kind of token is
     * accepted by the other operation.
     */
    public static WalkBinding ofPushConfigs(String tenant, String subject, String taskId) {
        return digest(out -> {
            out.writeByte(2); // layout version: push-config walks
            writeNullable(out, tenant);
            writeNullable(out, subject);
            writeNullable(out, taskId);
        });
    }

    /**
     * A walk over one task's transcript (history-paging extension): bound to the caller, the task,
     * the direction and the starting point the first page was asked from. Its own layout version
     * keeps it apart from the other kinds of walk.
     */
    public static WalkBinding ofTranscript(String tenant, String subject, String taskId, boolean newestFirst, Long startSeq,
            String startMessageId) {
        return digest(out -> {
            out.writeByte(3); // layout version: transcript walks
            writeNullable(out, tenant);
            writeNullable(out, subject);
            writeNullable(out, taskId);
            out.writeBoolean(newestFirst);
            out.writeBoolean(startSeq != null);
            out.writeLong(startSeq == null ? 0 : startSeq);
            writeNullable(out, startMessageId);
        });
    }

    private interface Fields {
        void write(DataOutputStream out) throws IOException;
    }

    /** A provider lookup per request is not free and a MessageDigest is not thread-safe: one per thread. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private static WalkBinding digest(Fields fields) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            fields.write(new DataOutputStream(bytes));
            byte[] sha = SHA_256.get().digest(bytes.toByteArray()); // digest() also resets it for the next use
            return new WalkBinding(Arrays.copyOf(sha, LENGTH));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeNullable(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] utf8 = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    byte[] digest() {
        return digest.clone();
    }

    boolean matches(byte[] other) {
        return MessageDigest.isEqual(digest, other);
    }
}
