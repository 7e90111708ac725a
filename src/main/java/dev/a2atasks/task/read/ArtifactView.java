package dev.a2atasks.task.read;

/** One stored artifact as a response needs it; JSON fields are ProtoJSON text, null when absent. */
public record ArtifactView(String artifactId, String name, String description, String partsJson, String metadataJson,
        String extensionsJson) {
}
