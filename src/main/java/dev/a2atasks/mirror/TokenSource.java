package dev.a2atasks.mirror;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.function.Supplier;

/**
 * The bearer token a mirror presents: a fixed value, or a file read again whenever its
 * modification time or size changes (a token rotated by a sidecar or a mounted secret needs no
 * restart). Never logged.
 */
final class TokenSource implements Supplier<String> {

    private final String fixed;
    private final Path file;
    private FileTime readAt;
    private long readSize = -1;
    private String token;

    private TokenSource(String fixed, Path file) {
        this.fixed = fixed;
        this.file = file;
    }

    static TokenSource fixed(String token) {
        return new TokenSource(token, null);
    }

    static TokenSource file(Path file) {
        return new TokenSource(null, file);
    }

    @Override
    public synchronized String get() {
        if (file == null) {
            return fixed;
        }
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            long size = Files.size(file);
            if (token == null || !modified.equals(readAt) || size != readSize) {
                token = Files.readString(file, StandardCharsets.UTF_8).strip();
                readAt = modified;
                readSize = size;
            }
            return token;
        } catch (IOException e) {
            throw new UncheckedIOException("bearer token file " + file + " unreadable: " + e.getMessage(), e);
        }
    }

    /** Changes when the token does: a credential refusal is retried early once it has. */
    synchronized int fingerprint() {
        return get().hashCode();
    }

    /** Where the token comes from, for logs: never the token. */
    @Override
    public String toString() {
        return file == null ? "configured token" : "token file " + file;
    }
}
