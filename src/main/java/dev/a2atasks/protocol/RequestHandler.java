package dev.a2atasks.protocol;

import com.google.protobuf.Empty;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.execution.MessageService;
import dev.a2atasks.execution.TaskStreams;
import dev.a2atasks.proto.v1.AgentCard;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.DeleteTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetExtendedAgentCardRequest;
import dev.a2atasks.proto.v1.GetTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsResponse;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.SendMessageResponse;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.ListTasksParams;
import dev.a2atasks.task.TaskPage;
import dev.a2atasks.task.TaskQueryService;
import dev.a2atasks.task.read.TaskView;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The service behind {@link A2AOperations}. The reads are served by the task read model,
 * SendMessage and CancelTask by the {@link MessageService} (store, agent, waiting); every
 * operation not built yet answers here, and only here: UnsupportedOperation, except the
 * push-notification config operations, which answer PushNotificationNotSupported while the Agent
 * Card says {@code pushNotifications: false} (spec §3.3.4).
 */
@ApplicationScoped
public class RequestHandler implements A2AOperations {

    private final TaskQueryService tasks;
    private final MessageService messages;
    private final TaskStreams streams;

    RequestHandler(TaskQueryService tasks, MessageService messages, TaskStreams streams) {
        this.tasks = tasks;
        this.messages = messages;
        this.streams = streams;
    }

    @Override
    public Uni<TaskView> getTask(CallContext call, GetTaskParams params) {
        return tasks.getTask(call.caller(), params);
    }

    @Override
    public Uni<TaskPage> listTasks(CallContext call, ListTasksParams params) {
        return tasks.listTasks(call.caller(), params);
    }

    @Override
    public Uni<SendMessageResponse> sendMessage(CallContext call, SendMessageRequest request) {
        return messages.send(call, request);
    }

    @Override
    public Multi<StreamResponse> sendStreamingMessage(CallContext call, SendMessageRequest request) {
        return messages.sendStreaming(call, request);
    }

    @Override
    public Uni<TaskView> cancelTask(CallContext call, CancelTaskRequest request) {
        return messages.cancel(call, request);
    }

    @Override
    public Multi<StreamResponse> subscribeToTask(CallContext call, SubscribeToTaskRequest request) {
        return streams.subscribe(call, request);
    }

    @Override
    public Uni<TaskPushNotificationConfig> createTaskPushNotificationConfig(CallContext call, TaskPushNotificationConfig request) {
        return pushNotSupported(A2AMethod.CREATE_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @Override
    public Uni<TaskPushNotificationConfig> getTaskPushNotificationConfig(CallContext call, GetTaskPushNotificationConfigRequest request) {
        return pushNotSupported(A2AMethod.GET_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @Override
    public Uni<ListTaskPushNotificationConfigsResponse> listTaskPushNotificationConfigs(CallContext call,
            ListTaskPushNotificationConfigsRequest request) {
        return pushNotSupported(A2AMethod.LIST_TASK_PUSH_NOTIFICATION_CONFIGS);
    }

    @Override
    public Uni<Empty> deleteTaskPushNotificationConfig(CallContext call, DeleteTaskPushNotificationConfigRequest request) {
        return pushNotSupported(A2AMethod.DELETE_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @Override
    public Uni<AgentCard> getExtendedAgentCard(CallContext call, GetExtendedAgentCardRequest request) {
        return unsupported(A2AMethod.GET_EXTENDED_AGENT_CARD);
    }

    private <T> Uni<T> unsupported(A2AMethod method) {
        return Uni.createFrom().failure(new A2AException.UnsupportedOperation(method.wireName()));
    }

    private <T> Uni<T> pushNotSupported(A2AMethod method) {
        return Uni.createFrom().failure(new A2AException.PushNotificationNotSupported(method.wireName()));
    }
}
