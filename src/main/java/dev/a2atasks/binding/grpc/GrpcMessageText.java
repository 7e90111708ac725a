package dev.a2atasks.binding.grpc;

import java.nio.charset.StandardCharsets;

/**
 * The {@code grpc-message} trailer's encoding, as the gRPC HTTP/2 protocol defines it: the
 * message's UTF-8 bytes, with every byte outside printable ASCII (0x20–0x7E) and '%' itself
 * written as %XX. Spaces, colons and quotes stay as they are, so every client shows the message
 * as it was written. (The Vert.x server's own encoder is a URL-form encoder that escapes those
 * too, and some clients then show "Task%20not%20found%3A%20x".)
 */
final class GrpcMessageText {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private GrpcMessageText() {
    }

    static String encode(String message) {
        byte[] utf8 = message.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = null;
        for (int i = 0; i < utf8.length; i++) {
            int b = utf8[i] & 0xff;
            boolean plain = b >= 0x20 && b <= 0x7e && b != '%';
            if (plain && out == null) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(utf8.length + 16).append(new String(utf8, 0, i, StandardCharsets.US_ASCII));
            }
            if (plain) {
                out.append((char) b);
            } else {
                out.append('%').append((char) HEX[b >> 4]).append((char) HEX[b & 0xf]);
            }
        }
        return out == null ? message : out.toString();
    }
}
