package dev.a2atasks.binding.json;

import dev.a2atasks.time.Timestamps;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import dev.a2atasks.task.read.MessageView;
import dev.a2atasks.task.read.ArtifactView;
import dev.a2atasks.task.TaskPage;
import dev.a2atasks.task.read.TaskView;

/**
 * Writes tasks as ProtoJSON (spec §5.5–5.6) for the HTTP+JSON and JSON-RPC bindings: camelCase
 * names, enum names, RFC 3339 UTC timestamps, absent fields left out. Stored JSON columns are
 * already ProtoJSON and are copied into the output without being parsed.
 */
public final class TaskJson {

    private static final JsonFactory JSON = new JsonFactory();

    private TaskJson() {
    }

    public static byte[] page(TaskPage page) {
        return write(json -> writePage(json, page));
    }

    public static byte[] task(TaskView task) {
        return write(json -> writeTask(json, task));
    }

    /** Writes a ListTasks result as the current JSON value (an object). */
    public static void writePage(JsonGenerator json, TaskPage page) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("tasks");
        for (TaskView task : page.tasks()) {
            writeTask(json, task);
        }
        json.writeEndArray();
        json.writeStringField("nextPageToken", page.nextPageToken());
        json.writeNumberField("pageSize", page.pageSize());
        json.writeNumberField("totalSize", page.totalSize());
        json.writeEndObject();
    }

    /** Writes one task as the current JSON value (an object). */
    public static void writeTask(JsonGenerator json, TaskView task) throws IOException {
        json.writeStartObject();
        json.writeStringField("id", task.id());
        if (!task.contextId().isEmpty()) {
            json.writeStringField("contextId", task.contextId());
        }
        json.writeObjectFieldStart("status");
        json.writeStringField("state", task.state());
        raw(json, "message", task.statusMessageJson());
        json.writeStringField("timestamp", Timestamps.rfc3339(task.statusTimestamp()));
        json.writeEndObject();
        if (task.artifacts() != null) {
            json.writeArrayFieldStart("artifacts");
            for (ArtifactView artifact : task.artifacts()) {
                writeArtifact(json, artifact);
            }
            json.writeEndArray();
        }
        if (task.history() != null && !task.history().isEmpty()) {
            json.writeArrayFieldStart("history");
            for (MessageView message : task.history()) {
                writeMessage(json, message, task);
            }
            json.writeEndArray();
        }
        raw(json, "metadata", task.metadataJson());
        json.writeEndObject();
    }

    private static void writeMessage(JsonGenerator json, MessageView message, TaskView task) throws IOException {
        json.writeStartObject();
        json.writeStringField("messageId", message.messageId());
        if (!task.contextId().isEmpty()) {
            json.writeStringField("contextId", task.contextId());
        }
        json.writeStringField("taskId", task.id());
        json.writeStringField("role", message.role());
        raw(json, "parts", message.partsJson());
        raw(json, "metadata", message.metadataJson());
        raw(json, "extensions", message.extensionsJson());
        raw(json, "referenceTaskIds", message.referenceTaskIdsJson());
        json.writeEndObject();
    }

    private static void writeArtifact(JsonGenerator json, ArtifactView artifact) throws IOException {
        json.writeStartObject();
        json.writeStringField("artifactId", artifact.artifactId());
        if (artifact.name() != null) {
            json.writeStringField("name", artifact.name());
        }
        if (artifact.description() != null) {
            json.writeStringField("description", artifact.description());
        }
        raw(json, "parts", artifact.partsJson());
        raw(json, "metadata", artifact.metadataJson());
        raw(json, "extensions", artifact.extensionsJson());
        json.writeEndObject();
    }

    private static void raw(JsonGenerator json, String field, String storedJson) throws IOException {
        if (storedJson != null) {
            json.writeFieldName(field);
            json.writeRawValue(storedJson);
        }
    }

    private interface Body {
        void write(JsonGenerator json) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            body.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
