package dev.a2atasks.binding.grpc;

import com.google.protobuf.Empty;

import dev.a2atasks.proto.v1.AgentCard;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.DeleteTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetExtendedAgentCardRequest;
import dev.a2atasks.proto.v1.GetTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsResponse;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.SendMessageResponse;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.protocol.A2AOperations;
import io.quarkus.grpc.GrpcService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The gRPC binding of {@code lf.a2a.v1.A2AService}: each method translates its request, calls the
 * one {@link A2AOperations} port, and translates the answer; admission and errors are {@link GrpcCalls}'.
 */
@GrpcService
public class A2AGrpcService implements dev.a2atasks.proto.v1.A2AService {

    private final GrpcCalls calls;
    private final A2AOperations port;

    A2AGrpcService(GrpcCalls calls, A2AOperations port) {
        this.calls = calls;
        this.port = port;
    }

    @Override
    public Uni<Task> getTask(GetTaskRequest request) {
        return calls.call(c -> port.getTask(c, ProtoTasks.params(request)).map(ProtoTasks::task));
    }

    @Override
    public Uni<ListTasksResponse> listTasks(ListTasksRequest request) {
        return calls.call(c -> port.listTasks(c, ProtoTasks.params(request)).map(ProtoTasks::response));
    }

    @Override
    public Uni<SendMessageResponse> sendMessage(SendMessageRequest request) {
        return calls.call(c -> port.sendMessage(c, request));
    }

    @Override
    public Multi<StreamResponse> sendStreamingMessage(SendMessageRequest request) {
        return calls.stream(c -> port.sendStreamingMessage(c, request));
    }

    @Override
    public Uni<Task> cancelTask(CancelTaskRequest request) {
        return calls.call(c -> port.cancelTask(c, request).map(ProtoTasks::task));
    }

    @Override
    public Multi<StreamResponse> subscribeToTask(SubscribeToTaskRequest request) {
        return calls.stream(c -> port.subscribeToTask(c, request));
    }

    @Override
    public Uni<TaskPushNotificationConfig> createTaskPushNotificationConfig(TaskPushNotificationConfig request) {
        return calls.call(c -> port.createTaskPushNotificationConfig(c, request));
    }

    @Override
    public Uni<TaskPushNotificationConfig> getTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest request) {
        return calls.call(c -> port.getTaskPushNotificationConfig(c, request));
    }

    @Override
    public Uni<ListTaskPushNotificationConfigsResponse> listTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest request) {
        return calls.call(c -> port.listTaskPushNotificationConfigs(c, request));
    }

    @Override
    public Uni<Empty> deleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest request) {
        return calls.call(c -> port.deleteTaskPushNotificationConfig(c, request));
    }

    @Override
    public Uni<AgentCard> getExtendedAgentCard(GetExtendedAgentCardRequest request) {
        return calls.call(c -> port.getExtendedAgentCard(c, request));
    }
}
