package dev.a2atasks.validation;

/**
 * The one grammar for text and numbers that every binding's values must meet. Pure functions:
 * they answer with the violation's wording (or null), so the validator and the bindings that
 * must refuse a value before it is even a Java string (an undecodable percent-escape, say) word
 * the refusal the same way.
 *
 * <p>Text: any Unicode text except NUL (PostgreSQL cannot store it in {@code text}) and lone
 * surrogates (they have no UTF-8 form). Integers: ASCII digits with an optional leading
 * {@code -}, within int32, as the proto's {@code int32} fields are; {@code +5}, {@code ５},
 * {@code 5.0} and {@code 2147483648} are not integers here, and nothing is capped silently.
 */
public final class Grammar {

    private Grammar() {
    }

    /** Why this text cannot be accepted in the named field, or null when it can. */
    public static String textProblem(String field, String value) {
        if (value == null) {
            return null;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\0') {
                return mustNotContainNul(field);
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return notUtf8(field);
            }
            if (Character.isLowSurrogate(c)) {
                return notUtf8(field);
            }
        }
        return null;
    }

    /** The refusal of a value that is not UTF-8 text: a lone surrogate, or bytes no decoder accepts. */
    public static String notUtf8(String field) {
        return field + " must be valid UTF-8 text";
    }

    public static String mustNotContainNul(String field) {
        return field + " must not contain NUL characters";
    }

    /** The refusal of a timestamp: text that is not RFC 3339, or a protobuf Timestamp outside its own range. */
    public static String notATimestamp(String field) {
        return field + " must be an RFC 3339 timestamp such as 2026-01-31T12:00:00Z";
    }

    /**
     * Whether the value can be sent as an HTTP header value as it is: visible ASCII and spaces
     * only, no leading or trailing space. A webhook's credentials and token travel in headers, so
     * anything else (CR/LF above all: header injection) is refused when it is registered.
     */
    public static boolean isHeaderValue(String value) {
        if (value.isEmpty() || value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ') {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** Whether the value is an HTTP token (RFC 9110 §5.6.2): an authentication scheme's name, for one. */
    public static boolean isHttpToken(String value) {
        if (value.isEmpty()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether identity text (a claim) holds a control character: U+0000–U+001F or U+007F. Such a
     * value names nobody a person could have meant, and would travel into logs and SQL.
     */
    public static boolean hasControlCharacter(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the value is written as a decimal integer of any size: {@code 0}, or an optional
     * {@code -} and ASCII digits without a leading zero.
     */
    public static boolean isInteger(String value) {
        if (value == null || value.isEmpty()) {
            return false;
        }
        int start = value.charAt(0) == '-' ? 1 : 0;
        if (start == value.length() || (value.charAt(start) == '0' && value.length() > 1)) {
            return false; // "-", "05", "-0", "00"
        }
        for (int i = start; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * The value as an int32 when it is written as one: {@code 0}, or an optional {@code -} and
     * ASCII digits without a leading zero (JSON's own grammar for integers), within range. Null
     * for anything else; the caller words the refusal.
     */
    public static Integer int32(String value) {
        if (!isInteger(value) || value.length() > 11) {
            return null;
        }
        long result = Long.parseLong(value); // safe: at most 10 ASCII digits and a sign
        return result < Integer.MIN_VALUE || result > Integer.MAX_VALUE ? null : (int) result;
    }

    /** The same for an int64 ({@code startSeq}): null for anything that is not one. */
    public static Long int64(String value) {
        if (!isInteger(value) || value.length() > 20) {
            return null;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return null; // 19 or 20 digits past the range
        }
    }
}
