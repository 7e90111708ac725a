package dev.a2atasks.support;

import static io.restassured.RestAssured.given;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import io.restassured.response.Response;

/**
 * The JSON-RPC binding: POST / with a JSON-RPC 2.0 request. Parameters are sent with the JSON
 * types a real client would use (numbers for integers, booleans for flags, strings otherwise).
 */
public class JsonRpcTaskApi implements TaskApi {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AtomicLong IDS = new AtomicLong();

    /** JSON-RPC error codes and the gRPC status names of the same A2A errors (spec §5.4). */
    private static final Map<Integer, String> STATUS_BY_CODE = Map.of(
            -32602, "INVALID_ARGUMENT", -32001, "NOT_FOUND", -32004, "FAILED_PRECONDITION",
            -32009, "FAILED_PRECONDITION", -32000, "UNAUTHENTICATED", -32603, "INTERNAL");

    @Override
    public String name() {
        return "JSONRPC";
    }

    @Override
    public ListTasksResponse list(String bearer, Map<String, String> params) {
        ObjectNode json = MAPPER.createObjectNode();
        params.forEach((name, value) -> put(json, name, value));
        return call(bearer, "ListTasks", json, ListTasksResponse.newBuilder());
    }

    @Override
    public Task get(String bearer, String tenant, String id, String historyLength) {
        ObjectNode json = MAPPER.createObjectNode().put("id", id);
        if (tenant != null) {
            json.put("tenant", tenant);
        }
        if (historyLength != null) {
            put(json, "historyLength", historyLength);
        }
        return call(bearer, "GetTask", json, Task.newBuilder());
    }

    private static void put(ObjectNode json, String name, String value) {
        if (value.matches("-?\\d{1,9}")) {
            json.put(name, Integer.parseInt(value));
        } else if (value.equals("true") || value.equals("false")) {
            json.put(name, Boolean.parseBoolean(value));
        } else {
            json.put(name, value);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Message> T call(String bearer, String method, ObjectNode params, Message.Builder builder) {
        long id = IDS.incrementAndGet();
        ObjectNode request = MAPPER.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        var spec = given().contentType("application/json").header("A2A-Version", "1.0").body(request.toString());
        if (bearer != null) {
            spec.header("Authorization", "Bearer " + bearer);
        }
        Response response = spec.post("/");
        JsonNode body = read(response.asString());
        if (body.path("id").asLong() != id || !"2.0".equals(body.path("jsonrpc").asText())) {
            throw new AssertionError("bad envelope: " + body);
        }
        if (body.has("error")) {
            throw new ApiException(error(body.get("error")));
        }
        if (response.statusCode() != 200) {
            throw new AssertionError("HTTP " + response.statusCode() + " with a result: " + body);
        }
        try {
            JsonFormat.parser().merge(body.get("result").toString(), builder);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("Not ProtoJSON: " + body, e);
        }
        return (T) builder.build();
    }

    static ApiError error(JsonNode error) {
        List<String> fields = new ArrayList<>();
        String reason = null;
        for (JsonNode detail : error.path("data")) {
            String type = detail.path("@type").asText();
            if (type.equals("type.googleapis.com/google.rpc.BadRequest")) {
                detail.path("fieldViolations").forEach(v -> fields.add(v.path("field").asText()));
            } else if (type.equals("type.googleapis.com/google.rpc.ErrorInfo")) {
                reason = detail.path("reason").asText();
            }
        }
        int code = error.path("code").asInt();
        return new ApiError(STATUS_BY_CODE.getOrDefault(code, "JSONRPC " + code), error.path("message").asText(), fields, reason);
    }

    private static JsonNode read(String body) {
        try {
            return MAPPER.readTree(body);
        } catch (Exception e) {
            throw new AssertionError("Not JSON: " + body, e);
        }
    }
}
