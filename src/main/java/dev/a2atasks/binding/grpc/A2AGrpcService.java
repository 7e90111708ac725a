package dev.a2atasks.binding.grpc;

import java.util.function.Function;

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
import com.google.protobuf.Empty;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.protocol.A2AMethod;
import dev.a2atasks.protocol.Admission;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.task.TaskQueryService;
import io.quarkus.grpc.GrpcService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/** The gRPC binding of {@code lf.a2a.v1.A2AService}: authenticates, translates, delegates. */
@GrpcService
public class A2AGrpcService implements dev.a2atasks.proto.v1.A2AService {

    private final Admission admission;
    private final TaskQueryService service;
    private final GrpcErrors errors;

    A2AGrpcService(Admission admission, TaskQueryService service, GrpcErrors errors) {
        this.admission = admission;
        this.service = service;
        this.errors = errors;
    }

    @Override
    public Uni<Task> getTask(GetTaskRequest request) {
        return call(caller -> service.getTask(caller, ProtoTasks.params(request)).map(ProtoTasks::task));
    }

    @Override
    public Uni<ListTasksResponse> listTasks(ListTasksRequest request) {
        return call(caller -> service.listTasks(caller, ProtoTasks.params(request)).map(ProtoTasks::response));
    }

    @Override
    public Uni<SendMessageResponse> sendMessage(SendMessageRequest request) {
        return unsupported(A2AMethod.SEND_MESSAGE);
    }

    @Override
    public Multi<StreamResponse> sendStreamingMessage(SendMessageRequest request) {
        return this.<StreamResponse>unsupported(A2AMethod.SEND_STREAMING_MESSAGE).toMulti();
    }

    @Override
    public Uni<Task> cancelTask(CancelTaskRequest request) {
        return unsupported(A2AMethod.CANCEL_TASK);
    }

    @Override
    public Multi<StreamResponse> subscribeToTask(SubscribeToTaskRequest request) {
        return this.<StreamResponse>unsupported(A2AMethod.SUBSCRIBE_TO_TASK).toMulti();
    }

    @Override
    public Uni<TaskPushNotificationConfig> createTaskPushNotificationConfig(TaskPushNotificationConfig request) {
        return unsupported(A2AMethod.CREATE_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @Override
    public Uni<TaskPushNotificationConfig> getTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest request) {
        return unsupported(A2AMethod.GET_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @Override
    public Uni<ListTaskPushNotificationConfigsResponse> listTaskPushNotificationConfigs(
            ListTaskPushNotificationConfigsRequest request) {
        return unsupported(A2AMethod.LIST_TASK_PUSH_NOTIFICATION_CONFIGS);
    }

    @Override
    public Uni<AgentCard> getExtendedAgentCard(GetExtendedAgentCardRequest request) {
        return unsupported(A2AMethod.GET_EXTENDED_AGENT_CARD);
    }

    @Override
    public Uni<Empty> deleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest request) {
        return unsupported(A2AMethod.DELETE_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    /** Admits the call (version, credentials), then runs it; every failure leaves as a gRPC status with details. */
    private <T> Uni<T> call(Function<Caller, Uni<T>> body) {
        String version = CallGuard.REQUESTED_VERSION.get();
        return admission.admit(version).chain(caller -> body.apply(caller)).onFailure().transform(errors::toStatus);
    }

    private <T> Uni<T> unsupported(A2AMethod method) {
        return call(caller -> Uni.createFrom().failure(new A2AException.UnsupportedOperation(method.wireName())));
    }
}
