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
     * A request body of the HTTP+JSON binding, read as JSON-RPC reads its params: the body meets
     * {@link StrictJson}, then {@link #parse}. A body sent as anything but JSON
     * ({@code application/json}, {@code application/a2a+json}) is refused as
     * ContentTypeNotSupported, as JSON-RPC refuses it; a body without a Content-Type is read as
     * JSON. The request's tenant is the path's; a tenant in the body is judged like JSON-RPC's
     * (kept, and scoped by the validator) when the path names none, and refused when it names
     * another.
     */
    public static <B extends Message.Builder> B parseBody(String contentType, byte[] body, B builder, String pathTenant) {
        boolean empty = body == null || body.length == 0;
        if (!empty && contentType != null && !isJson(contentType)) {
            throw new A2AException.ContentTypeNotSupported("The request body must be sent as application/json (or "
                    + MediaTypes.A2A_JSON + ")");
        }
        if (!empty) {
            try {
                com.fasterxml.jackson.databind.JsonNode json = StrictJson.read(body);
                if (json != null) {
                    parse(json.toString(), builder, "body");
                }
            } catch (StrictJson.Malformed e) {
                throw A2AException.invalidParam("body", "body is not valid JSON: " + e.getMessage());
            }
        }
        com.google.protobuf.Descriptors.FieldDescriptor tenant = builder.getDescriptorForType().findFieldByName("tenant");
        if (tenant == null) {
            throw new IllegalArgumentException(builder.getDescriptorForType().getName() + " has no tenant"); // a binding's mistake
        }
        String inBody = (String) builder.getField(tenant);
        if (!pathTenant.isEmpty()) {
            if (!inBody.isEmpty() && !inBody.equals(pathTenant)) {
                throw A2AException.invalidParam("tenant", "tenant in the body must be the path's tenant, or absent");
            }
            builder.setField(tenant, pathTenant);
        }
        return builder;
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
