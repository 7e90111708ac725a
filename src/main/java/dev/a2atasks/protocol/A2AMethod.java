package dev.a2atasks.protocol;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The A2A 1.0 operations by their wire names (the gRPC method and JSON-RPC method names), and
 * after them the operations of this service's own extensions.
 */
public enum A2AMethod {
    SEND_MESSAGE("SendMessage"),
    SEND_STREAMING_MESSAGE("SendStreamingMessage"),
    GET_TASK("GetTask"),
    LIST_TASKS("ListTasks"),
    CANCEL_TASK("CancelTask"),
    SUBSCRIBE_TO_TASK("SubscribeToTask"),
    CREATE_TASK_PUSH_NOTIFICATION_CONFIG("CreateTaskPushNotificationConfig"),
    GET_TASK_PUSH_NOTIFICATION_CONFIG("GetTaskPushNotificationConfig"),
    LIST_TASK_PUSH_NOTIFICATION_CONFIGS("ListTaskPushNotificationConfigs"),
    DELETE_TASK_PUSH_NOTIFICATION_CONFIG("DeleteTaskPushNotificationConfig"),
    GET_EXTENDED_AGENT_CARD("GetExtendedAgentCard"),
    /** History paging ({@link dev.a2atasks.client.HistoryPaging}); gRPC service {@code a2atasks.history.v1.TaskHistoryService}. */
    LIST_TASK_MESSAGES(dev.a2atasks.client.HistoryPaging.METHOD);

    private static final Map<String, A2AMethod> BY_WIRE_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(A2AMethod::wireName, Function.identity()));

    private final String wireName;

    A2AMethod(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The method with this wire name, or null. */
    public static A2AMethod byWireName(String name) {
        return BY_WIRE_NAME.get(name);
    }
}
