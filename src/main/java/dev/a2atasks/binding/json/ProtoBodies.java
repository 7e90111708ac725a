package dev.a2atasks.binding.json;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.error.A2AException;

/**
 * ProtoJSON request bodies of the JSON bindings, read into the A2A request messages: JSON names
 * and proto field names both accepted, unknown fields ignored (spec §5.5). A body that is not the
 * message is invalid params naming the field that carried it; the text is never echoed.
 */
public final class ProtoBodies {

    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

    private ProtoBodies() {
    }

    /**
     * A request body read as {@link #parse}, after its Content-Type: a body sent as anything but
     * JSON ({@code application/json}, {@code application/a2a+json}) is refused as
     * ContentTypeNotSupported, as JSON-RPC refuses it; a body without a Content-Type is read as JSON.
     */
    public static <B extends Message.Builder> B parseBody(String contentType, String json, B builder) {
        if (json != null && !json.isBlank() && contentType != null && !isJson(contentType)) {
            throw new A2AException.ContentTypeNotSupported("The request body must be sent as application/json (or "
                    + MediaTypes.A2A_JSON + ")");
        }
        return parse(json, builder, "body");
    }

    /** Whether a Content-Type header names JSON: application/json or the A2A type, parameters (charset) aside. */
    public static boolean isJson(String contentType) {
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(java.util.Locale.ROOT);
        return type.equals("application/json") || type.equals(MediaTypes.A2A_JSON);
    }

    /** The message read from this JSON ("" or null: the empty message). */
    @SuppressWarnings("unchecked")
    public static <B extends Message.Builder> B parse(String json, B builder, String field) {
        if (json == null || json.isBlank()) {
            return builder;
        }
        try {
            PARSER.merge(json, builder);
            return builder;
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            throw A2AException.invalidParam(field, field + " is not a valid " + builder.getDescriptorForType().getName());
        }
    }
}
