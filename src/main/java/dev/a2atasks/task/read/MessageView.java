package dev.a2atasks.task.read;

/**
 * One stored message as a response needs it. JSON fields are ProtoJSON text straight from the
 * store (null when absent): the JSON bindings copy them, the gRPC binding parses them.
 */
public record MessageView(long seq, String messageId, String role, String partsJson, String metadataJson,
        String extensionsJson, String referenceTaskIdsJson) {
}
