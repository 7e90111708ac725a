package dev.a2atasks.push;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import com.google.protobuf.Empty;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.paging.PageCursor;
import dev.a2atasks.paging.PageTokenCodec;
import dev.a2atasks.paging.WalkBinding;
import dev.a2atasks.proto.v1.AuthenticationInfo;
import dev.a2atasks.proto.v1.DeleteTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsResponse;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.task.PushConfigCommand;
import dev.a2atasks.task.PushConfigQuery;
import dev.a2atasks.task.RequestValidator;
import dev.a2atasks.task.store.LockedTaskWrite;
import dev.a2atasks.task.store.NewTaskWebhook;
import dev.a2atasks.task.store.TaskEntity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The four push-notification config operations (spec §3.1.7-3.1.10), once for every binding, and
 * the registration a SendMessage carries. Scoped exactly like tasks: another caller's task, or a
 * task in another tenant, is TaskNotFound with the same bytes as a task that does not exist.
 *
 * <p>A registration's URL is judged by the {@link WebhookGuard} before it is stored; its token and
 * credentials are sealed by the {@link SecretBox} and answered masked, on every operation.
 */
@ApplicationScoped
public class PushConfigs {

    /** What get, list and create show in place of a stored secret: never the secret, nor its length. */
    public static final String MASK = "********";

    private final RequestValidator validator;
    private final PushStore store;
    private final WebhookGuard guard;
    private final SecretBox secrets;
    private final PageTokenCodec tokens;
    private final PushSettings settings;

    PushConfigs(RequestValidator validator, PushStore store, WebhookGuard guard, SecretBox secrets, PageTokenCodec tokens,
            PushSettings settings) {
        this.validator = validator;
        this.store = store;
        this.guard = guard;
        this.secrets = secrets;
        this.tokens = tokens;
        this.settings = settings;
    }

    public boolean enabled() {
        return settings.enabled();
    }

    public Uni<TaskPushNotificationConfig> create(Caller caller, TaskPushNotificationConfig request) {
        PushConfigCommand command = validator.pushConfig(request);
        if (!inCallersTenant(caller, command.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(command.taskId()));
        }
        return prepare(caller, command, command.taskId(), "url")
                .chain(row -> store.save(caller, row, settings.maxConfigsPerTask()))
                .map(saved -> shown(command.tenant(), saved));
    }

    public Uni<TaskPushNotificationConfig> get(Caller caller, GetTaskPushNotificationConfigRequest request) {
        PushConfigQuery query = validator.pushConfigKey(request.getTenant(), request.getTaskId(), request.getId());
        if (!inCallersTenant(caller, query.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(query.taskId()));
        }
        return store.find(caller, query.taskId(), query.id()).map(row -> shown(query.tenant(), row));
    }

    /** A keyset walk in id order; its page tokens are sealed and bound to the caller and the task. */
    public Uni<ListTaskPushNotificationConfigsResponse> list(Caller caller, ListTaskPushNotificationConfigsRequest request) {
        PushConfigQuery query = validator.listPushConfigs(request.getTenant(), request.getTaskId(), request.getPageSize(),
                request.getPageToken());
        WalkBinding binding = WalkBinding.ofPushConfigs(caller.tenant(), caller.subject(), query.taskId());
        PageCursor cursor = query.pageToken() == null ? null : tokens.open(query.pageToken(), binding);
        if (!inCallersTenant(caller, query.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(query.taskId()));
        }
        int size = query.pageSize();
        return store.page(caller, query.taskId(), cursor == null ? null : cursor.taskId(), size + 1).map(rows -> {
            boolean more = rows.size() > size;
            List<PushConfigEntity> page = more ? rows.subList(0, size) : rows;
            ListTaskPushNotificationConfigsResponse.Builder response = ListTaskPushNotificationConfigsResponse.newBuilder();
            page.forEach(row -> response.addConfigs(shown(query.tenant(), row)));
            if (more) {
                // The cursor's id slot carries the last registration's id; the other slots are unused here.
                response.setNextPageToken(tokens.seal(new PageCursor(0, page.get(page.size() - 1).id, 0), binding));
            }
            return response.build();
        });
    }

    public Uni<Empty> delete(Caller caller, DeleteTaskPushNotificationConfigRequest request) {
        PushConfigQuery query = validator.pushConfigKey(request.getTenant(), request.getTaskId(), request.getId());
        if (!inCallersTenant(caller, query.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(query.taskId()));
        }
        return store.delete(caller, query.taskId(), query.id()).replaceWith(Empty.getDefaultInstance());
    }

    /**
     * A registration sent with a message (SendMessage's configuration): judged and sealed now, then
     * stored in the message's transaction under the task's lock, before the status change it is owed.
     * A message that creates its task stores it in the task's creating statement (the task has no
     * registration to count or replace yet); one to an existing task through {@link PushStore}.
     */
    public Uni<LockedTaskWrite> withMessage(Caller caller, PushConfigCommand command, String taskId) {
        int maxPerTask = settings.maxConfigsPerTask();
        return prepare(caller, command, taskId, "configuration.taskPushNotificationConfig.url").map(row -> new LockedTaskWrite() {
            @Override
            public Uni<?> write(TaskEntity lockedTask) {
                return store.saveLocked(lockedTask, row, maxPerTask);
            }

            @Override
            public NewTaskWebhook asNewTaskWebhook() {
                return maxPerTask < 1 ? null // refused by saveLocked, with its error
                        : new NewTaskWebhook(row.id, row.url, row.authScheme, row.tokenSealed, row.credentialsSealed, row.sealedWith,
                                row.createdAt);
            }
        });
    }

    /**
     * A validated registration made ready to store for the given task: its URL's addresses judged
     * (refused as invalid params on {@code urlField}), an id assigned when it has none, its
     * secrets sealed to this row.
     */
    Uni<PushConfigEntity> prepare(Caller caller, PushConfigCommand command, String taskId, String urlField) {
        return guard.check(command.url())
                .onFailure(WebhookGuard.Refused.class).transform(refused -> A2AException.invalidParam(urlField,
                        urlField + " is refused: " + refused.getMessage()
                                + " (webhooks may not call private networks; see a2a.push.allow-list)"))
                .map(addresses -> {
                    PushConfigEntity row = new PushConfigEntity();
                    row.tenant = caller.tenant();
                    row.owner = caller.subject();
                    row.taskId = taskId;
                    row.id = command.id() != null ? command.id() : UUID.randomUUID().toString();
                    row.url = command.url().toString();
                    row.authScheme = command.authScheme();
                    if (command.token() != null || command.credentials() != null) {
                        row.sealedWith = secrets.currentKeyId();
                    }
                    row.tokenSealed = command.token() == null ? null : secrets.seal(command.token(), place(row, "token"));
                    row.credentialsSealed = command.credentials() == null ? null
                            : secrets.seal(command.credentials(), place(row, "credentials"));
                    row.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
                    return row;
                });
    }

    static SecretBox.Place place(PushConfigEntity row, String field) {
        return new SecretBox.Place(row.tenant, row.owner, row.taskId, row.id, field);
    }

    /** A stored registration as the operations answer it: secrets masked. */
    static TaskPushNotificationConfig shown(String tenant, PushConfigEntity row) {
        TaskPushNotificationConfig.Builder config = TaskPushNotificationConfig.newBuilder()
                .setTenant(tenant).setId(row.id).setTaskId(row.taskId).setUrl(row.url);
        if (row.tokenSealed != null) {
            config.setToken(MASK);
        }
        if (row.authScheme != null) {
            AuthenticationInfo.Builder auth = AuthenticationInfo.newBuilder().setScheme(row.authScheme);
            if (row.credentialsSealed != null) {
                auth.setCredentials(MASK);
            }
            config.setAuthentication(auth);
        }
        return config.build();
    }

    private static boolean inCallersTenant(Caller caller, String tenant) {
        return tenant.isEmpty() || tenant.equals(caller.tenant());
    }
}
