package dev.a2atasks.protocol;

import com.google.protobuf.Empty;

import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
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
import dev.a2atasks.task.TranscriptParams;
import dev.a2atasks.task.read.TaskView;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The A2A service as one port: the eleven operations of {@code lf.a2a.v1.A2AService}, and the
 * operations of this service's declared extensions (ListTaskMessages, history paging), each
 * taking the admitted {@link CallContext}. Every binding decodes its request, calls exactly one
 * of these, and encodes the result or the {@link dev.a2atasks.error.A2AException}; validation,
 * scoping and error wording live behind this interface, once.
 *
 * <p>The read operations take the service's typed parameter records (gRPC fills them from its
 * typed fields, the JSON bindings through the shared text decoder; the one validator judges
 * them); the other operations take the A2A request messages themselves, the data model the
 * write path works on.
 */
public interface A2AOperations {

    Uni<SendMessageResponse> sendMessage(CallContext call, SendMessageRequest request);

    Multi<StreamResponse> sendStreamingMessage(CallContext call, SendMessageRequest request);

    Uni<TaskView> getTask(CallContext call, GetTaskParams params);

    Uni<TaskPage> listTasks(CallContext call, ListTasksParams params);

    Uni<TaskView> cancelTask(CallContext call, CancelTaskRequest request);

    Multi<StreamResponse> subscribeToTask(CallContext call, SubscribeToTaskRequest request);

    Uni<TaskPushNotificationConfig> createTaskPushNotificationConfig(CallContext call, TaskPushNotificationConfig request);

    Uni<TaskPushNotificationConfig> getTaskPushNotificationConfig(CallContext call, GetTaskPushNotificationConfigRequest request);

    Uni<ListTaskPushNotificationConfigsResponse> listTaskPushNotificationConfigs(CallContext call,
            ListTaskPushNotificationConfigsRequest request);

    Uni<Empty> deleteTaskPushNotificationConfig(CallContext call, DeleteTaskPushNotificationConfigRequest request);

    Uni<AgentCard> getExtendedAgentCard(CallContext call, GetExtendedAgentCardRequest request);

    /**
     * History paging (extension {@value dev.a2atasks.client.HistoryPaging#URI}): a page of a task's
     * transcript. Refused with ExtensionSupportRequired unless the call declared the extension.
     */
    Uni<ListTaskMessagesResponse> listTaskMessages(CallContext call, TranscriptParams params);
}
