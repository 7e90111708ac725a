package dev.a2atasks.support;

import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;

/**
 * The JSON-RPC binding: POST / with a JSON-RPC 2.0 request. Parameters are sent with the JSON
 * types a real client would use (numbers for integers, booleans for flags, strings otherwise).
 */
public class JsonRpcTaskApi implements TaskApi {

    private static final ObjectMapper MAPPER = new ObjectMapper();

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

    private static <T extends Message> T call(String bearer, String method, ObjectNode params, Message.Builder builder) {
        return JsonRpc.call(bearer, null, method, params).result(builder);
    }
}
