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
