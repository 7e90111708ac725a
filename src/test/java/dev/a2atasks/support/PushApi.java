package dev.a2atasks.support;

import static io.restassured.RestAssured.given;

import java.net.URL;
import java.util.List;
import java.util.function.Function;

import com.google.protobuf.Empty;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.DeleteTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsResponse;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import io.grpc.StatusRuntimeException;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * The four push-config operations through each binding, as a client sends them: HTTP+JSON routes,
 * JSON-RPC methods, gRPC calls. Every answer is either the result or what the error said, with
 * the raw error bytes for same-bytes comparisons.
 */
public final class PushApi {

    /** An error as the binding told it: its status name, message, ErrorInfo reason and the fields it named. */
    public record Said(String status, String message, String reason, List<String> fields, String raw) {
    }

    public record Answer<T>(T value, Said error) {
        public T ok() {
            if (error != null) {
                throw new AssertionError("expected success, got " + error);
            }
            return value;
        }

        public Said failed() {
            if (error == null) {
                throw new AssertionError("expected an error, got " + value);
            }
            return error;
        }
    }

    private final URL root;

    public PushApi(URL root) {
        this.root = root;
    }

    public Answer<TaskPushNotificationConfig> create(String binding, String bearer, TaskPushNotificationConfig config) {
        return switch (binding) {
            case "HTTP+JSON" -> rest("POST", bearer, prefix(config.getTenant()) + "/tasks/" + config.getTaskId() + "/pushNotificationConfigs",
                    json(config.toBuilder().clearTenant().build()), TaskPushNotificationConfig.newBuilder());
            case "JSONRPC" -> jsonRpc(bearer, "CreateTaskPushNotificationConfig", json(config), TaskPushNotificationConfig.newBuilder());
            default -> grpc(bearer, stub -> stub.createTaskPushNotificationConfig(config));
        };
    }

    /** Create with a JSON body as given (HTTP+JSON: the body of the route of {@code taskId}; JSON-RPC: the params). */
    public Answer<TaskPushNotificationConfig> createRaw(String binding, String bearer, String taskId, String json) {
        return switch (binding) {
            case "HTTP+JSON" -> rest("POST", bearer, "/tasks/" + taskId + "/pushNotificationConfigs", json, TaskPushNotificationConfig.newBuilder());
            case "JSONRPC" -> jsonRpc(bearer, "CreateTaskPushNotificationConfig", json, TaskPushNotificationConfig.newBuilder());
            default -> throw new IllegalArgumentException("raw JSON is for the JSON bindings");
        };
    }

    public Answer<TaskPushNotificationConfig> get(String binding, String bearer, String taskId, String id) {
        return switch (binding) {
            case "HTTP+JSON" -> rest("GET", bearer, "/tasks/" + taskId + "/pushNotificationConfigs/" + id, null, TaskPushNotificationConfig.newBuilder());
            case "JSONRPC" -> jsonRpc(bearer, "GetTaskPushNotificationConfig",
                    json(GetTaskPushNotificationConfigRequest.newBuilder().setTaskId(taskId).setId(id).build()), TaskPushNotificationConfig.newBuilder());
            default -> grpc(bearer, stub -> stub.getTaskPushNotificationConfig(
                    GetTaskPushNotificationConfigRequest.newBuilder().setTaskId(taskId).setId(id).build()));
        };
    }

    public Answer<ListTaskPushNotificationConfigsResponse> list(String binding, String bearer, String taskId, Integer pageSize, String pageToken) {
        ListTaskPushNotificationConfigsRequest.Builder request = ListTaskPushNotificationConfigsRequest.newBuilder().setTaskId(taskId);
        if (pageSize != null) {
            request.setPageSize(pageSize);
        }
        if (pageToken != null) {
            request.setPageToken(pageToken);
        }
        return switch (binding) {
            case "HTTP+JSON" -> {
                List<String> query = new java.util.ArrayList<>();
                if (pageSize != null) {
                    query.add("pageSize=" + pageSize);
                }
                if (pageToken != null) {
                    query.add("pageToken=" + pageToken);
                }
                yield rest("GET", bearer, "/tasks/" + taskId + "/pushNotificationConfigs" + (query.isEmpty() ? "" : "?" + String.join("&", query)),
                        null, ListTaskPushNotificationConfigsResponse.newBuilder());
            }
            case "JSONRPC" -> jsonRpc(bearer, "ListTaskPushNotificationConfigs", json(request.build()),
                    ListTaskPushNotificationConfigsResponse.newBuilder());
            default -> grpc(bearer, stub -> stub.listTaskPushNotificationConfigs(request.build()));
        };
    }

    public Answer<Empty> delete(String binding, String bearer, String taskId, String id) {
        return switch (binding) {
            case "HTTP+JSON" -> rest("DELETE", bearer, "/tasks/" + taskId + "/pushNotificationConfigs/" + id, null, Empty.newBuilder());
            case "JSONRPC" -> jsonRpc(bearer, "DeleteTaskPushNotificationConfig",
                    json(DeleteTaskPushNotificationConfigRequest.newBuilder().setTaskId(taskId).setId(id).build()), Empty.newBuilder());
            default -> grpc(bearer, stub -> stub.deleteTaskPushNotificationConfig(
                    DeleteTaskPushNotificationConfigRequest.newBuilder().setTaskId(taskId).setId(id).build()));
        };
    }

    public static String json(Message message) {
        try {
            return JsonFormat.printer().print(message);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static String prefix(String tenant) {
        return tenant.isEmpty() ? "" : "/" + tenant;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Message> Answer<T> parsed(String json, Message.Builder builder) {
        try {
            JsonFormat.parser().merge(json, builder);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(json, e);
        }
        return new Answer<>((T) builder.build(), null);
    }

    private static <T extends Message> Answer<T> rest(String method, String bearer, String path, String body, Message.Builder builder) {
        return rest(method, bearer, null, path, body, builder);
    }

    /** An HTTP+JSON call, declaring {@code extensions} in A2A-Extensions unless null. */
    static <T extends Message> Answer<T> rest(String method, String bearer, String extensions, String path, String body,
            Message.Builder builder) {
        var request = given().urlEncodingEnabled(false).contentType("application/json").header("A2A-Version", "1.0")
                .header("Authorization", "Bearer " + bearer);
        if (extensions != null) {
            request = request.header("A2A-Extensions", extensions);
        }
        if (body != null) {
            request = request.body(body);
        }
        Response response = request.request(method, path);
        String text = response.asString();
        if (response.statusCode() == 200) {
            return parsed(text, builder);
        }
        if (response.statusCode() >= 500) {
            throw new AssertionError("HTTP " + response.statusCode() + ": " + text);
        }
        JsonPath json = JsonPath.from(text);
        List<String> fields = json.getList("error.details.find { it.'@type'.endsWith('BadRequest') }.fieldViolations.field");
        return new Answer<>(null, new Said(json.getString("error.status"), json.getString("error.message"),
                json.getString("error.details.find { it.'@type'.endsWith('ErrorInfo') }.reason"), fields == null ? List.of() : fields,
                response.statusCode() + " " + text));
    }

    private static <T extends Message> Answer<T> jsonRpc(String bearer, String method, String params, Message.Builder builder) {
        return jsonRpc(bearer, null, method, params, builder);
    }

    /** A JSON-RPC call, declaring {@code extensions} in A2A-Extensions unless null. */
    static <T extends Message> Answer<T> jsonRpc(String bearer, String extensions, String method, String params, Message.Builder builder) {
        JsonRpc.Reply reply = JsonRpc.call(bearer, extensions, method, params);
        if (!reply.isError()) {
            return new Answer<>(reply.result(builder), null);
        }
        ApiError error = reply.error();
        return new Answer<>(null, new Said(error.status(), error.message(), error.reason(), error.fields(),
                reply.envelope().get("error").toString()));
    }

    private <T extends Message> Answer<T> grpc(String bearer, Function<A2AServiceGrpc.A2AServiceBlockingStub, Message> call) {
        return grpc(root, channels -> call.apply(channels.stub(bearer)));
    }

    /** A gRPC call on a fresh channel; a status is the answer's error, INTERNAL or UNKNOWN fails the test. */
    @SuppressWarnings("unchecked")
    static <T extends Message> Answer<T> grpc(URL root, Function<GrpcChannels, Message> call) {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            return new Answer<>((T) call.apply(channels), null);
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == io.grpc.Status.Code.INTERNAL || e.getStatus().getCode() == io.grpc.Status.Code.UNKNOWN) {
                throw new AssertionError("gRPC " + e.getStatus(), e);
            }
            ErrorInfo info = GrpcChannels.errorInfo(e);
            BadRequest bad = GrpcChannels.badRequest(e);
            com.google.rpc.Status status = io.grpc.protobuf.StatusProto.fromThrowable(e);
            return new Answer<>(null, new Said(e.getStatus().getCode().name(), e.getStatus().getDescription(),
                    info == null ? null : info.getReason(),
                    bad == null ? List.of() : bad.getFieldViolationsList().stream().map(BadRequest.FieldViolation::getField).toList(),
                    status == null ? e.getStatus().toString() : status.toString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
