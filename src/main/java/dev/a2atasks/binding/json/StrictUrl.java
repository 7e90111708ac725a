package dev.a2atasks.binding.json;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.validation.Grammar;

/**
 * Checks that every percent-encoded part of a request URL decodes to UTF-8 text. The framework
 * decodes leniently (a bad byte becomes U+FFFD, which would then be served as if the caller had
 * sent it); this refuses the request instead, naming the parameter. Text that passes decodes to
 * exactly what the framework hands the resources, so nothing else changes.
 */
final class StrictUrl {

    private static final String BAD_ESCAPE = "escape";
    private static final String NOT_UTF8 = "utf8";

    private StrictUrl() {
    }

    /** Throws invalid params naming the first path parameter or query parameter that is not UTF-8. */
    static void check(String path, String query) {
        String[] segments = path.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String problem = problem(segments[i], false);
            if (problem != null) {
                throw refusal(pathField(segments, i), problem);
            }
        }
        if (query == null || query.isEmpty()) {
            return;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String rawName = eq < 0 ? pair : pair.substring(0, eq);
            String name = problem(rawName, true) == null ? decode(rawName, true) : "query";
            String problem = problem(rawName, true);
            if (problem == null && eq >= 0) {
                problem = problem(pair.substring(eq + 1), true);
            }
            if (problem != null) {
                throw refusal(name.length() > 64 ? "query" : name, problem);
            }
        }
    }

    private static A2AException refusal(String field, String problem) {
        String description = problem.equals(BAD_ESCAPE) ? field + " has a malformed percent-escape" : Grammar.notUtf8(field);
        return A2AException.invalidParams(List.of(new FieldViolation(field, description)));
    }

    /** Path segments are named after the A2A routes: {tenant}/tasks/{id}..., else just "path". */
    private static String pathField(String[] segments, int i) {
        if (i + 1 < segments.length && (segments[i + 1].equals("tasks") || segments[i + 1].startsWith("message:")
                || segments[i + 1].equals("extendedAgentCard"))) {
            return "tenant";
        }
        if (i > 0 && segments[i - 1].equals("tasks")) {
            return "id";
        }
        return "path";
    }

    /** Null when the part decodes to UTF-8 text; else which of the two problems it has. */
    private static String problem(String raw, boolean plusIsSpace) {
        try {
            bytesToText(bytes(raw, plusIsSpace));
            return null;
        } catch (IllegalArgumentException e) {
            return BAD_ESCAPE;
        } catch (CharacterCodingException e) {
            return NOT_UTF8;
        }
    }

    private static String decode(String raw, boolean plusIsSpace) {
        try {
            return bytesToText(bytes(raw, plusIsSpace));
        } catch (CharacterCodingException e) {
            throw new IllegalStateException(e); // checked by problem() first
        }
    }

    private static byte[] bytes(String raw, boolean plusIsSpace) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    throw new IllegalArgumentException("truncated escape");
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0 || raw.charAt(i + 1) > 'f' || raw.charAt(i + 2) > 'f') {
                    throw new IllegalArgumentException("bad escape");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                out.write(' ');
            } else if (c <= 0xff) {
                out.write(c); // the request line arrives as bytes; anything above ASCII is a raw byte
            } else {
                throw new IllegalArgumentException("not a byte");
            }
        }
        return out.toByteArray();
    }

    private static String bytesToText(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    }
}
