package dev.a2atasks.binding.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.ListTasksParams;
import dev.a2atasks.task.TextParams;

/**
 * Reads ProtoJSON {@code params} into the service's typed parameters, through the text decoder the
 * HTTP+JSON binding uses too. Both the JSON names
 * (camelCase) and the proto field names (snake_case) are accepted; unknown fields are ignored.
 * Scalars are passed on as text for the shared decoder and validator to judge; only a wrongly typed string
 * field is refused here, since only JSON can send one.
 */
final class JsonRpcParams {

    private JsonRpcParams() {
    }

    static ListTasksParams listTasks(JsonNode params) {
        return TextParams.listTasks(
                string(params, "tenant", "tenant"),
                string(params, "contextId", "context_id"),
                scalar(params, "status", "status"),
                scalar(params, "pageSize", "page_size"),
                string(params, "pageToken", "page_token"),
                scalar(params, "historyLength", "history_length"),
                string(params, "statusTimestampAfter", "status_timestamp_after"),
                scalar(params, "includeArtifacts", "include_artifacts"));
    }

    static dev.a2atasks.task.TranscriptParams listTaskMessages(JsonNode params) {
        return TextParams.listTaskMessages(
                string(params, "tenant", "tenant"),
                string(params, "taskId", "task_id"),
                scalar(params, "pageSize", "page_size"),
                string(params, "pageToken", "page_token"),
                scalar(params, "direction", "direction"),
                scalar(params, "startSeq", "start_seq"),
                string(params, "startMessageId", "start_message_id"));
    }

    static GetTaskParams getTask(JsonNode params) {
        return TextParams.getTask(
                string(params, "tenant", "tenant"),
                string(params, "id", "id"),
                scalar(params, "historyLength", "history_length"));
    }

    private static JsonNode field(JsonNode params, String jsonName, String protoName) {
        JsonNode value = params.get(jsonName);
        return value != null ? value : params.get(protoName);
    }

    private static String string(JsonNode params, String jsonName, String protoName) {
        JsonNode value = field(params, jsonName, protoName);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw A2AException.invalidParam(jsonName, jsonName + " must be a string");
        }
        return value.textValue();
    }

    /** Numbers, booleans and enum names as text; objects and arrays as their JSON, which no validator accepts. */
    private static String scalar(JsonNode params, String jsonName, String protoName) {
        JsonNode value = field(params, jsonName, protoName);
        if (value == null || value.isNull()) {
            return null;
        }
        return value.isValueNode() ? value.asText() : value.toString();
    }
}
