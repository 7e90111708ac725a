package dev.a2atasks.support;

import static io.restassured.RestAssured.given;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

import io.restassured.response.Response;

/**
 * The tests' one JSON-RPC client: POST / with a 2.0 envelope, the envelope of the answer checked
 * (version, the id echoed), its result parsed as ProtoJSON or its error read as an
 * {@link ApiError} named like gRPC's status for the same A2A error, so a test compares bindings
 * by name. Every test helper that speaks JSON-RPC goes through here.
 */
public final class JsonRpc {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AtomicLong IDS = new AtomicLong();

    /**
     * JSON-RPC error codes and the gRPC status of the same error: the A2A errors (spec §5.4, as this
     * service maps them), JSON-RPC's own, and this service's outage and rate-limit codes. Written
     * out here rather than read from the server's table, so that a wrong code there fails a test.
     */
    private static final Map<Integer, String> STATUS_BY_CODE = Map.ofEntries(
            Map.entry(-32700, "INVALID_ARGUMENT"), Map.entry(-32600, "INVALID_ARGUMENT"), Map.entry(-32601, "NOT_FOUND"),
            Map.entry(-32602, "INVALID_ARGUMENT"), Map.entry(-32603, "INTERNAL"),
            Map.entry(-32000, "UNAUTHENTICATED"), Map.entry(-32001, "NOT_FOUND"), Map.entry(-32002, "FAILED_PRECONDITION"),
            Map.entry(-32003, "FAILED_PRECONDITION"), Map.entry(-32004, "FAILED_PRECONDITION"), Map.entry(-32005, "INVALID_ARGUMENT"),
            Map.entry(-32008, "FAILED_PRECONDITION"), Map.entry(-32009, "FAILED_PRECONDITION"),
            Map.entry(-31503, "UNAVAILABLE"), Map.entry(-31429, "RESOURCE_EXHAUSTED"));

    private JsonRpc() {
    }

    /** What came back: the HTTP status, the envelope, and the body as sent. */
    public record Reply(int http, JsonNode envelope, String body) {

        public boolean isError() {
            return envelope.has("error");
        }

        /** The error, named by its gRPC status; fails the test on a result. */
        public ApiError error() {
            if (!isError()) {
                throw new AssertionError("expected an error, got " + body);
            }
            return JsonRpc.error(envelope.get("error"));
        }

        /** The result as the given message; fails the test on an error or a body that is not ProtoJSON. */
        @SuppressWarnings("unchecked")
        public <T extends Message> T result(Message.Builder builder) {
            if (isError()) {
                throw new ApiException(error());
            }
            if (http != 200) {
                throw new AssertionError("HTTP " + http + " with a result: " + body);
            }
            try {
                JsonFormat.parser().merge(envelope.get("result").toString(), builder);
            } catch (InvalidProtocolBufferException e) {
                throw new AssertionError("Not ProtoJSON: " + body, e);
            }
            return (T) builder.build();
        }
    }

    /** Calls {@code method}; {@code bearer} and {@code extensions} (A2A-Extensions) are left out when null. */
    public static Reply call(String bearer, String extensions, String method, JsonNode params) {
        long id = IDS.incrementAndGet();
        var request = MAPPER.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        var spec = given().contentType("application/json").header("A2A-Version", "1.0").body(request.toString());
        if (bearer != null) {
            spec.header("Authorization", "Bearer " + bearer);
        }
        if (extensions != null) {
            spec.header("A2A-Extensions", extensions);
        }
        Response response = spec.post("/");
        if (response.statusCode() >= 500) {
            throw new AssertionError("HTTP " + response.statusCode() + ": " + response.asString());
        }
        JsonNode envelope = read(response.asString());
        if (envelope.path("id").asLong() != id || !"2.0".equals(envelope.path("jsonrpc").asText())) {
            throw new AssertionError("bad envelope: " + envelope);
        }
        return new Reply(response.statusCode(), envelope, response.asString());
    }

    /** {@link #call} with parameters written as JSON text. */
    public static Reply call(String bearer, String extensions, String method, String paramsJson) {
        return call(bearer, extensions, method, read(paramsJson));
    }

    /** The gRPC status name of a JSON-RPC error code, or "JSONRPC code" for one this table does not know. */
    public static String statusOf(int code) {
        return STATUS_BY_CODE.getOrDefault(code, "JSONRPC " + code);
    }

    /** An error object as a test sees it: status name, message, BadRequest fields, ErrorInfo reason. */
    public static ApiError error(JsonNode error) {
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
        return new ApiError(statusOf(error.path("code").asInt()), error.path("message").asText(), fields, reason);
    }

    private static JsonNode read(String body) {
        try {
            return MAPPER.readTree(body);
        } catch (Exception e) {
            throw new AssertionError("Not JSON: " + body, e);
        }
    }
}
