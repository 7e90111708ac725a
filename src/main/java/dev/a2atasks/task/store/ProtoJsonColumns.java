package dev.a2atasks.task.store;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import dev.a2atasks.proto.v1.Part;

/**
 * The store's JSON columns hold ProtoJSON, so the JSON bindings can copy them to a response as
 * they are and the gRPC binding can parse them back into messages. This is the one place that
 * converts in either direction.
 */
public final class ProtoJsonColumns {

    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();
    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ProtoJsonColumns() {
    }

    public static String print(Message message) {
        try {
            return PRINTER.print(message);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("Cannot print " + message.getDescriptorForType().getFullName(), e);
        }
    }

    /** A Struct column value, or null for an empty struct (stored as SQL NULL). */
    public static String printStruct(Struct struct) {
        return struct == null || struct.getFieldsCount() == 0 ? null : print(struct);
    }

    public static String printParts(List<Part> parts) {
        StringBuilder json = new StringBuilder(64 * parts.size() + 2).append('[');
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append(print(parts.get(i)));
        }
        return json.append(']').toString();
    }

    /** A JSON array of strings, or null for an empty list. */
    public static String printStrings(List<String> values) {
        if (values == null || values.isEmpty()) {
            return null;
        }
        try {
            return MAPPER.writeValueAsString(values);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static <B extends Message.Builder> B parse(String json, B builder) {
        try {
            PARSER.merge(json, builder);
            return builder;
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("Stored JSON is not valid ProtoJSON for "
                    + builder.getDescriptorForType().getFullName(), e);
        }
    }

    /** An artifact from its stored columns: the one mapping, for reads and for the copy comparison. */
    public static dev.a2atasks.proto.v1.Artifact artifact(String artifactId, String name, String description, String partsJson,
            String metadataJson, String extensionsJson) {
        dev.a2atasks.proto.v1.Artifact.Builder artifact = dev.a2atasks.proto.v1.Artifact.newBuilder()
                .setArtifactId(artifactId)
                .addAllParts(parseParts(partsJson))
                .addAllExtensions(parseStrings(extensionsJson));
        if (name != null) {
            artifact.setName(name);
        }
        if (description != null) {
            artifact.setDescription(description);
        }
        if (metadataJson != null) {
            artifact.setMetadata(parseStruct(metadataJson));
        }
        return artifact.build();
    }

    public static Struct parseStruct(String json) {
        return json == null ? Struct.getDefaultInstance() : parse(json, Struct.newBuilder()).build();
    }

    public static List<Part> parseParts(String json) {
        List<Part> parts = new ArrayList<>();
        for (JsonNode element : readArray(json)) {
            parts.add(parse(element.toString(), Part.newBuilder()).build());
        }
        return parts;
    }

    public static List<String> parseStrings(String json) {
        List<String> values = new ArrayList<>();
        for (JsonNode element : readArray(json)) {
            values.add(element.asText());
        }
        return values;
    }

    private static JsonNode readArray(String json) {
        if (json == null) {
            return MAPPER.createArrayNode();
        }
        try {
            JsonNode node = MAPPER.readTree(json);
            if (!node.isArray()) {
                throw new IllegalStateException("Stored JSON is not an array");
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("Stored JSON is not valid", e);
        }
    }
}
