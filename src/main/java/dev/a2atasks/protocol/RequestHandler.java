package dev.a2atasks.protocol;

import com.google.protobuf.Empty;

import java.util.function.Supplier;

import org.jboss.logging.Logger;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorKind;
import dev.a2atasks.execution.MessageService;
import dev.a2atasks.execution.TaskStreams;
import dev.a2atasks.metrics.ServiceMetrics;
import dev.a2atasks.client.HistoryPaging;
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
import dev.a2atasks.push.PushConfigs;
import dev.a2atasks.ratelimit.OpenStreams;
import dev.a2atasks.ratelimit.RateLimits;
import dev.a2atasks.ratelimit.RequestClass;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.ListTasksParams;
import dev.a2atasks.task.TaskPage;
import dev.a2atasks.task.TaskQueryService;
import dev.a2atasks.task.TranscriptParams;
import dev.a2atasks.task.read.TaskView;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The service behind {@link A2AOperations}. The reads are served by the task read model,
 * SendMessage and CancelTask by the {@link MessageService} (store, agent, waiting), the
 * push-notification config operations by {@link PushConfigs} (PushNotificationNotSupported while
 * push is off and the Agent Card says {@code pushNotifications: false}, spec §3.3.4); every
 * operation not built yet answers here, and only here: UnsupportedOperation.
 *
 * <p>Every operation passes the same two steps here, whatever its binding: the caller's rate
 * limit for the operation's {@link RequestClass} (before any work), and the request metric
 * (binding, operation, outcome, latency) when it ends. An operation of one of this service's
 * extensions runs only for a call that declared the extension (spec §4.6); others get
 * ExtensionSupportRequired, limited and counted like any answer.
 */
@ApplicationScoped
public class RequestHandler implements A2AOperations {

    private static final Logger LOG = Logger.getLogger(RequestHandler.class);

    private final TaskQueryService tasks;
    private final MessageService messages;
    private final TaskStreams streams;
    private final PushConfigs push;
    private final RateLimits limits;
    private final OpenStreams openStreams;
    private final ServiceMetrics metrics;

    RequestHandler(TaskQueryService tasks, MessageService messages, TaskStreams streams, PushConfigs push, RateLimits limits,
            OpenStreams openStreams, ServiceMetrics metrics) {
        this.openStreams = openStreams;
        this.tasks = tasks;
        this.messages = messages;
        this.streams = streams;
        this.push = push;
        this.limits = limits;
        this.metrics = metrics;
    }

    @Override
    public Uni<TaskView> getTask(CallContext call, GetTaskParams params) {
        return call(call, A2AMethod.GET_TASK, RequestClass.GET, () -> tasks.getTask(call.caller(), params));
    }

    @Override
    public Uni<TaskPage> listTasks(CallContext call, ListTasksParams params) {
        // A page token, even one that will be refused, says the caller means to continue a walk.
        RequestClass requestClass = params.pageToken() == null || params.pageToken().isEmpty()
                ? RequestClass.WALK_START : RequestClass.PAGE;
        return call(call, A2AMethod.LIST_TASKS, requestClass, () -> tasks.listTasks(call.caller(), params));
    }

    @Override
    public Uni<SendMessageResponse> sendMessage(CallContext call, SendMessageRequest request) {
        return call(call, A2AMethod.SEND_MESSAGE, RequestClass.WRITE, () -> messages.send(call.caller(), call.extensions(), request));
    }

    @Override
    public Multi<StreamResponse> sendStreamingMessage(CallContext call, SendMessageRequest request) {
        return stream(call, A2AMethod.SEND_STREAMING_MESSAGE, RequestClass.WRITE, () -> messages.sendStreaming(call.caller(), call.extensions(), request));
    }

    @Override
    public Uni<TaskView> cancelTask(CallContext call, CancelTaskRequest request) {
        return call(call, A2AMethod.CANCEL_TASK, RequestClass.WRITE, () -> messages.cancel(call.caller(), request));
    }

    @Override
    public Multi<StreamResponse> subscribeToTask(CallContext call, SubscribeToTaskRequest request) {
        return stream(call, A2AMethod.SUBSCRIBE_TO_TASK, RequestClass.OTHER, () -> streams.subscribe(call.caller(), request));
    }

    @Override
    public Uni<TaskPushNotificationConfig> createTaskPushNotificationConfig(CallContext call, TaskPushNotificationConfig request) {
        return push(call, A2AMethod.CREATE_TASK_PUSH_NOTIFICATION_CONFIG, RequestClass.WRITE, () -> push.create(call.caller(), request));
    }

    @Override
    public Uni<TaskPushNotificationConfig> getTaskPushNotificationConfig(CallContext call, GetTaskPushNotificationConfigRequest request) {
        return push(call, A2AMethod.GET_TASK_PUSH_NOTIFICATION_CONFIG, RequestClass.OTHER, () -> push.get(call.caller(), request));
    }

    @Override
    public Uni<ListTaskPushNotificationConfigsResponse> listTaskPushNotificationConfigs(CallContext call,
            ListTaskPushNotificationConfigsRequest request) {
        return push(call, A2AMethod.LIST_TASK_PUSH_NOTIFICATION_CONFIGS, RequestClass.OTHER, () -> push.list(call.caller(), request));
    }

    @Override
    public Uni<Empty> deleteTaskPushNotificationConfig(CallContext call, DeleteTaskPushNotificationConfigRequest request) {
        return push(call, A2AMethod.DELETE_TASK_PUSH_NOTIFICATION_CONFIG, RequestClass.WRITE, () -> push.delete(call.caller(), request));
    }

    @Override
    public Uni<AgentCard> getExtendedAgentCard(CallContext call, GetExtendedAgentCardRequest request) {
        return unsupported(call, A2AMethod.GET_EXTENDED_AGENT_CARD, RequestClass.OTHER);
    }

    @Override
    public Uni<ListTaskMessagesResponse> listTaskMessages(CallContext call, TranscriptParams params) {
        RequestClass requestClass = params.request().getPageToken().isEmpty() ? RequestClass.GET : RequestClass.PAGE;
        // The opt-in first: a call without it learns nothing else, not even what is wrong with its parameters.
        return call(call, A2AMethod.LIST_TASK_MESSAGES, requestClass, () -> call.extensions().contains(HistoryPaging.URI)
                ? tasks.listTaskMessages(call.caller(), params)
                : Uni.createFrom().failure(new A2AException.ExtensionSupportRequired(A2AMethod.LIST_TASK_MESSAGES.wireName(),
                        HistoryPaging.URI)));
    }

    /** Rate limit, then the operation, then its request metric. */
    private <T> Uni<T> call(CallContext call, A2AMethod method, RequestClass requestClass, Supplier<Uni<T>> operation) {
        return Uni.createFrom().deferred(() -> {
            long start = System.nanoTime();
            return admitted(call, requestClass).chain(() -> operation.get())
                    .onItemOrFailure().invoke((item, failure) -> record(call, method, failure, start));
        });
    }

    /** The same for a stream: its outcome is how it ended, its latency how long it lasted. */
    private <T> Multi<T> stream(CallContext call, A2AMethod method, RequestClass requestClass, Supplier<Multi<T>> operation) {
        return Multi.createFrom().deferred(() -> {
            long start = System.nanoTime();
            return admitted(call, requestClass).onItem().transformToMulti(ignored -> {
                OpenStreams.Slot slot = openStreams.open(call.caller()); // before any work, like a rate limit
                try {
                    return operation.get().onTermination().invoke(slot::close);
                } catch (RuntimeException e) {
                    slot.close();
                    throw e;
                }
            }).onTermination().invoke((failure, cancelled) -> record(call, method, failure, start));
        });
    }

    private Uni<Void> admitted(CallContext call, RequestClass requestClass) {
        return limits.check(call.caller(), requestClass)
                .onFailure(A2AException.RateLimited.class).invoke(() -> metrics.rateLimited(requestClass));
    }

    /**
     * The request metric, and a DEBUG line per operation (off by default; turn it on with
     * {@code quarkus.log.category."dev.a2atasks.protocol.RequestHandler".level=DEBUG}): it carries the
     * request id and, with tracing on, the trace id, so a log line leads to its trace.
     */
    private void record(CallContext call, A2AMethod method, Throwable failure, long start) {
        long nanos = System.nanoTime() - start;
        ErrorKind kind = failure == null ? null : Failures.kindOf(failure);
        metrics.request(call.binding().wireName(), method.wireName(), kind, nanos);
        if (LOG.isDebugEnabled()) {
            LOG.debugf("%s %s %s in %d us", call.binding().wireName(), method.wireName(), kind == null ? "ok" : kind.name(), nanos / 1000);
        }
    }

    /** An operation not built yet: limited and counted like any other, then refused. */
    private <T> Uni<T> unsupported(CallContext call, A2AMethod method, RequestClass requestClass) {
        return call(call, method, requestClass, () -> Uni.createFrom().failure(new A2AException.UnsupportedOperation(method.wireName())));
    }

    /** A push-config operation: PushNotificationNotSupported while push is off ({@code a2a.push.enabled=false}). */
    private <T> Uni<T> push(CallContext call, A2AMethod method, RequestClass requestClass, Supplier<Uni<T>> operation) {
        return call(call, method, requestClass, () -> push.enabled() ? operation.get()
                : Uni.createFrom().failure(new A2AException.PushNotificationNotSupported(method.wireName())));
    }
}
