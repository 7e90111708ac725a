package dev.a2atasks.support;

import static io.restassured.RestAssured.given;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** The HTTP+JSON binding: GET /tasks and /tasks/{id}, plain or tenant-prefixed. */
public class RestTaskApi implements TaskApi {

    @Override
    public String name() {
        return "HTTP+JSON";
    }

    @Override
    public ListTasksResponse list(String bearer, Map<String, String> params) {
        Map<String, String> query = new HashMap<>(params);
        String tenant = query.remove("tenant");
        Response response = request(bearer).queryParams(query).get(tenant == null ? "/tasks" : "/" + tenant + "/tasks");
        return parse(response, ListTasksResponse.newBuilder());
    }

    @Override
    public Task get(String bearer, String tenant, String id, String historyLength) {
        RequestSpecification request = request(bearer);
        if (historyLength != null) {
            request.queryParam("historyLength", historyLength);
        }
        Response response = request.get(tenant == null ? "/tasks/{id}" : "/" + tenant + "/tasks/{id}", id);
        return parse(response, Task.newBuilder());
    }

    private static RequestSpecification request(String bearer) {
        RequestSpecification request = given().accept("application/a2a+json").header("A2A-Version", "1.0");
        return bearer == null ? request : request.header("Authorization", "Bearer " + bearer);
    }

    @SuppressWarnings("unchecked")
    static <T extends Message> T parse(Response response, Message.Builder builder) {
        String body = response.asString();
        if (response.statusCode() != 200) {
            throw new ApiException(error(body));
        }
        if (!response.contentType().startsWith("application/a2a+json")) {
            throw new AssertionError("content type " + response.contentType());
        }
        try {
            JsonFormat.parser().merge(body, builder); // strict: unknown fields would fail
            return (T) builder.build();
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("Not ProtoJSON: " + body, e);
        }
    }

    /** Reads the {"error":{...}} body shared by HTTP+JSON (and, as error.data, JSON-RPC). */
    static ApiError error(String body) {
        JsonPath json = JsonPath.from(body);
        List<String> fields = new ArrayList<>();
        String reason = null;
        List<Map<String, Object>> details = json.getList("error.details");
        for (Map<String, Object> detail : details == null ? List.<Map<String, Object>>of() : details) {
            if ("type.googleapis.com/google.rpc.BadRequest".equals(detail.get("@type"))) {
                for (Object v : (List<?>) detail.get("fieldViolations")) {
                    fields.add((String) ((Map<?, ?>) v).get("field"));
                }
            }
            if ("type.googleapis.com/google.rpc.ErrorInfo".equals(detail.get("@type"))) {
                reason = (String) detail.get("reason");
            }
        }
        return new ApiError(json.getString("error.status"), json.getString("error.message"), fields, reason);
    }
}
