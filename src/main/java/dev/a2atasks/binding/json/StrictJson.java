package dev.a2atasks.binding.json;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * The one JSON grammar of both JSON bindings, applied to a request body before anything reads
 * it: UTF-8 (strictly: a malformed sequence is refused, never replaced by U+FFFD), no byte order
 * mark, one JSON value and nothing after it, no NaN or Infinity tokens. Decimals are kept exactly
 * as written (a double would turn {@code 1e400} into Infinity, and {@code 5.0} into {@code 5}),
 * so the proto decoder and the validator judge the number that was sent. Beyond this grammar the
 * proto's own JSON mapping applies, the same on both bindings (it accepts, for one, a number
 * where the proto has a string).
 */
public final class StrictJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    private StrictJson() {
    }

    /** Why a body is not JSON of this grammar, in words that never echo the body. */
    public static final class Malformed extends Exception {
        private Malformed(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The body's one JSON value; null for an empty (or all-whitespace) body. */
    public static JsonNode read(byte[] body) throws Malformed {
        if (body.length >= 3 && (body[0] & 0xff) == 0xEF && (body[1] & 0xff) == 0xBB && (body[2] & 0xff) == 0xBF) {
            throw new Malformed("it starts with a byte order mark");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("it is not valid UTF-8");
        }
        if (text.isBlank()) {
            return null;
        }
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Malformed("it is not one JSON value with nothing after it (NaN and Infinity are not JSON)");
        }
    }
}
