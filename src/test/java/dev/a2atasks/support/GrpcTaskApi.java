package dev.a2atasks.support;

import java.net.URL;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.google.protobuf.Timestamp;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;

import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import io.grpc.StatusRuntimeException;

/**
 * The gRPC binding. Text parameters become their proto equivalents; values proto cannot carry
 * become their nearest binary equivalent (an unknown enum number, an out-of-range timestamp) or
 * are reported as inexpressible.
 */
public class GrpcTaskApi implements TaskApi, AutoCloseable {

    private final GrpcChannels channels;

    public GrpcTaskApi(URL root) {
        this.channels = new GrpcChannels(root);
    }

    @Override
    public String name() {
        return "GRPC";
    }

    @Override
    public boolean canExpress(Map<String, String> params) {
        return isInt(params.get("pageSize")) && isInt(params.get("historyLength"))
                && (params.get("includeArtifacts") == null || params.get("includeArtifacts").matches("true|false"));
    }

    @Override
    public ListTasksResponse list(String bearer, Map<String, String> params) {
        ListTasksRequest.Builder request = ListTasksRequest.newBuilder();
        params.forEach((name, value) -> {
            switch (name) {
                case "tenant" -> request.setTenant(value);
                case "contextId" -> request.setContextId(value);
                case "status" -> {
                    try {
                        request.setStatus(TaskState.valueOf(value));
                    } catch (IllegalArgumentException e) {
                        request.setStatusValue(99);
                    }
                }
                case "pageSize" -> request.setPageSize(Integer.parseInt(value));
                case "pageToken" -> request.setPageToken(value);
                case "historyLength" -> request.setHistoryLength(Integer.parseInt(value));
                case "statusTimestampAfter" -> request.setStatusTimestampAfter(timestamp(value));
                case "includeArtifacts" -> request.setIncludeArtifacts(Boolean.parseBoolean(value));
                default -> {
                    // unknown parameters have no gRPC form; they are ignored like on the other bindings
                }
            }
        });
        try {
            return channels.stub(bearer).listTasks(request.build());
        } catch (StatusRuntimeException e) {
            throw new ApiException(error(e));
        }
    }

    @Override
    public Task get(String bearer, String tenant, String id, String historyLength) {
        GetTaskRequest.Builder request = GetTaskRequest.newBuilder().setId(id);
        if (tenant != null) {
            request.setTenant(tenant);
        }
        if (historyLength != null) {
            request.setHistoryLength(Integer.parseInt(historyLength));
        }
        try {
            return channels.stub(bearer).getTask(request.build());
        } catch (StatusRuntimeException e) {
            throw new ApiException(error(e));
        }
    }

    static ApiError error(StatusRuntimeException e) {
        List<String> fields = new ArrayList<>();
        BadRequest badRequest = GrpcChannels.badRequest(e);
        if (badRequest != null) {
            badRequest.getFieldViolationsList().forEach(v -> fields.add(v.getField()));
        }
        ErrorInfo info = GrpcChannels.errorInfo(e);
        return new ApiError(e.getStatus().getCode().name(), e.getStatus().getDescription(), fields,
                info == null ? null : info.getReason());
    }

    private static Timestamp timestamp(String value) {
        try {
            var instant = OffsetDateTime.parse(value).toInstant();
            return Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
        } catch (DateTimeParseException e) {
            return Timestamp.newBuilder().setSeconds(0).setNanos(-1).build(); // what a broken client could send
        }
    }

    private static boolean isInt(String value) {
        if (value == null) {
            return true;
        }
        try {
            Integer.parseInt(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    @Override
    public void close() throws InterruptedException {
        channels.close();
    }
}
