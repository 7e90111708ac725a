package dev.a2atasks.task;

import dev.a2atasks.task.read.ListTasksQuery;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.task.HistoryConfig;
import dev.a2atasks.paging.PageTokenCodec;
import com.google.protobuf.Value;

import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.time.Timestamps;
import dev.a2atasks.validation.Grammar;
import jakarta.enterprise.context.ApplicationScoped;

import static dev.a2atasks.task.FieldRules.blankToNull;
import static dev.a2atasks.task.FieldRules.boundedText;
import static dev.a2atasks.task.FieldRules.eachText;
import static dev.a2atasks.task.FieldRules.historyLength;
import static dev.a2atasks.task.FieldRules.pageSize;
import static dev.a2atasks.task.FieldRules.pageToken;
import static dev.a2atasks.task.FieldRules.pushConfigFields;
import static dev.a2atasks.task.FieldRules.required;
import static dev.a2atasks.task.FieldRules.state;
import static dev.a2atasks.task.FieldRules.structured;
import static dev.a2atasks.task.FieldRules.text;

/**
 * Turns typed parameters into a query or an invalid-params error naming every bad field, in field
 * order. Runs before any database work; the only validator of ListTasks and GetTask for every
 * binding: text meets {@link Grammar}, numbers their ranges, and what a binding could not decode
 * ({@code undecodable}) is reported in its field's place.
 *
 * <p>Messages never echo text the caller sent (a huge or hostile value stays out of logs and
 * error bodies) and read the same whichever binding carried the value.
 */
@ApplicationScoped
public class RequestValidator {

    public static final int DEFAULT_PAGE_SIZE = 50;
    public static final int MAX_PAGE_SIZE = 100;
    /** Longest task id, context id or tenant accepted; longer values cannot name anything stored. */
    public static final int MAX_ID_CHARS = 1024;

    private static final String STATE_LIST = String.join(", ", Arrays.stream(TaskState.values())
            .filter(s -> s != TaskState.UNRECOGNIZED && s != TaskState.TASK_STATE_UNSPECIFIED)
            .map(Enum::name).toList());

    private final HistoryConfig history;
    private final int maxTextChars;

    RequestValidator(HistoryConfig history,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "a2a.message.max-text-chars", defaultValue = "100000") int maxTextChars) {
        this.history = history;
        this.maxTextChars = maxTextChars;
    }

    public ListTasksQuery listTasks(ListTasksParams p) {
        Violations v = new Violations(p.undecodable());
        String tenant = v.check("tenant", () -> boundedText(v, "tenant", p.tenant()));
        String contextId = v.check("contextId", () -> boundedText(v, "contextId", p.contextId()));
        TaskState status = v.check("status", () -> state(v, p.status()));
        Integer pageSize = v.check("pageSize", () -> pageSize(v, p.pageSize()));
        String pageToken = v.check(PageTokenCodec.FIELD, () -> pageToken(v, p.pageToken()));
        Integer historyLength = v.check("historyLength", () -> historyLength(v, p.historyLength()));
        // The store keeps microseconds; rounded up so ">= after" keeps its meaning.
        Instant after = v.check("statusTimestampAfter", () -> p.statusTimestampAfter().map(Timestamps::ceilMicros).orElse(null));
        Boolean includeArtifacts = v.check("includeArtifacts", () -> p.includeArtifacts().orElse(false));
        v.throwIfAny();
        return new ListTasksQuery(tenant == null ? "" : tenant, contextId, status,
                pageSize == null ? DEFAULT_PAGE_SIZE : pageSize, pageToken,
                effectiveHistory(historyLength, history.defaultListLength()), after, includeArtifacts);
    }

    public GetTaskQuery getTask(GetTaskParams p) {
        Violations v = new Violations(p.undecodable());
        String tenant = v.check("tenant", () -> boundedText(v, "tenant", p.tenant()));
        String id = v.check("id", () -> {
            String value = boundedText(v, "id", p.id());
            if (value == null && !v.has("id")) {
                v.add(new FieldViolation("id", "id is required"));
            }
            return value;
        });
        Integer historyLength = v.check("historyLength", () -> historyLength(v, p.historyLength()));
        v.throwIfAny();
        return new GetTaskQuery(tenant == null ? "" : tenant, id, effectiveHistory(historyLength, history.defaultGetLength()));
    }

    /**
     * SendMessage's request (spec §3.1.1, §3.2.2): a user message with an id and at least one part,
     * each part holding exactly one kind of content; every text in it (parts, ids, metadata,
     * extension URIs) meets the grammar; the text parts together stay within
     * {@code a2a.message.max-text-chars}.
     */
    public SendMessageCommand sendMessage(SendMessageRequest request) {
        Violations v = new Violations(List.of());
        String tenant = boundedText(v, "tenant", request.getTenant());
        if (!request.hasMessage()) {
            v.add(new FieldViolation("message", "message is required"));
            v.throwIfAny();
        }
        Message message = request.getMessage();
        String messageId = boundedText(v, "message.messageId", message.getMessageId());
        if (messageId == null && !v.has("message.messageId")) {
            v.add(new FieldViolation("message.messageId", "message.messageId is required"));
        }
        String taskId = boundedText(v, "message.taskId", message.getTaskId());
        String contextId = boundedText(v, "message.contextId", message.getContextId());
        if (message.getRole() != Role.ROLE_USER) {
            v.add(new FieldViolation("message.role", "message.role must be ROLE_USER"));
        }
        if (message.getPartsCount() == 0) {
            v.add(new FieldViolation("message.parts", "message.parts must not be empty"));
        }
        long textChars = 0;
        for (int i = 0; i < message.getPartsCount(); i++) {
            Part part = message.getParts(i);
            String field = "message.parts[" + i + "]";
            switch (part.getContentCase()) {
                case TEXT -> {
                    text(v, field + ".text", part.getText());
                    textChars += part.getText().length();
                }
                case URL -> boundedText(v, field + ".url", part.getUrl());
                case DATA -> structured(v, field + ".data", part.getData());
                case RAW -> { }
                default -> v.add(new FieldViolation(field, field + " must hold one of text, raw, url or data"));
            }
            text(v, field + ".filename", part.getFilename());
            text(v, field + ".mediaType", part.getMediaType());
            structured(v, field + ".metadata", Value.newBuilder().setStructValue(part.getMetadata()).build());
        }
        if (textChars > maxTextChars) {
            v.add(new FieldViolation("message.parts", "message.parts hold " + textChars + " characters of text; at most "
                    + maxTextChars + " are accepted"));
        }
        structured(v, "message.metadata", Value.newBuilder().setStructValue(message.getMetadata()).build());
        eachText(v, "message.extensions", message.getExtensionsList());
        eachText(v, "message.referenceTaskIds", message.getReferenceTaskIdsList());
        structured(v, "metadata", Value.newBuilder().setStructValue(request.getMetadata()).build());
        SendMessageConfiguration configuration = request.getConfiguration();
        eachText(v, "configuration.acceptedOutputModes", configuration.getAcceptedOutputModesList());
        OptionalInt historyLength = OptionalInt.empty();
        if (configuration.hasHistoryLength()) {
            if (configuration.getHistoryLength() < 0) {
                v.add(new FieldViolation("configuration.historyLength",
                        "configuration.historyLength must not be negative, got " + configuration.getHistoryLength()));
            } else {
                historyLength = OptionalInt.of(configuration.getHistoryLength());
            }
        }
        PushConfigCommand push = configuration.hasTaskPushNotificationConfig()
                ? pushConfigFields(v, configuration.getTaskPushNotificationConfig(), "configuration.taskPushNotificationConfig.", false)
                : null;
        v.throwIfAny();
        return new SendMessageCommand(tenant == null ? "" : tenant, taskId, contextId, message,
                configuration.getAcceptedOutputModesList(), historyLength, configuration.getReturnImmediately(), push);
    }

    /** Longest webhook URL accepted. */
    public static final int MAX_URL_CHARS = 2048;
    /** Longest token or credentials accepted; both travel in a request header. */
    public static final int MAX_SECRET_CHARS = 4096;

    /** CreateTaskPushNotificationConfig (spec §3.1.7): the task is named, the URL is required. */
    public PushConfigCommand pushConfig(TaskPushNotificationConfig config) {
        Violations v = new Violations(List.of());
        PushConfigCommand command = pushConfigFields(v, config, "", true);
        v.throwIfAny();
        return command;
    }

    /** Get or Delete of one registration: tenant, task and registration ids. */
    public PushConfigQuery pushConfigKey(String tenant, String taskId, String id) {
        Violations v = new Violations(List.of());
        String t = boundedText(v, "tenant", tenant);
        String task = required(v, "taskId", taskId);
        String config = required(v, "id", id);
        v.throwIfAny();
        return new PushConfigQuery(t == null ? "" : t, task, config, 0, null);
    }

    /** ListTaskPushNotificationConfigs: pageSize 0 (the proto default) means the default size. */
    public PushConfigQuery listPushConfigs(String tenant, String taskId, int pageSize, String pageToken) {
        Violations v = new Violations(List.of());
        String t = boundedText(v, "tenant", tenant);
        String task = required(v, "taskId", taskId);
        Integer size = pageSize == 0 ? null : pageSize(v, OptionalInt.of(pageSize));
        String token = pageToken(v, pageToken);
        v.throwIfAny();
        return new PushConfigQuery(t == null ? "" : t, task, null, size == null ? DEFAULT_PAGE_SIZE : size, token);
    }

    /** ListTaskMessages (history-paging extension): messages per page when the request sets none, and at most. */
    public static final int DEFAULT_MESSAGE_PAGE_SIZE = 50;
    public static final int MAX_MESSAGE_PAGE_SIZE = 100;
    static final String DIRECTIONS = Direction.DIRECTION_NEWEST_FIRST.name() + " or " + Direction.DIRECTION_OLDEST_FIRST.name();

    /**
     * ListTaskMessages: a task id, a page size within 1..{@value #MAX_MESSAGE_PAGE_SIZE}, a known
     * direction, and a starting point that is a seq ≥ 0 or a message id of the grammar. Whether the
     * task is the caller's, and whether the message id names one of its messages, the store says.
     */
    public TranscriptQuery listTaskMessages(TranscriptParams p) {
        ListTaskMessagesRequest r = p.request();
        Violations v = new Violations(p.undecodable());
        String tenant = v.check("tenant", () -> boundedText(v, "tenant", r.getTenant()));
        String taskId = v.check("taskId", () -> required(v, "taskId", r.getTaskId()));
        Integer pageSize = v.check("pageSize", () -> {
            if (!r.hasPageSize()) {
                return null;
            }
            if (r.getPageSize() < 1 || r.getPageSize() > MAX_MESSAGE_PAGE_SIZE) {
                v.add(new FieldViolation("pageSize", outOfRange("pageSize", 1, MAX_MESSAGE_PAGE_SIZE, Integer.toString(r.getPageSize()))));
                return null;
            }
            return r.getPageSize();
        });
        String token = v.check(PageTokenCodec.FIELD, () -> pageToken(v, r.getPageToken()));
        Boolean newestFirst = v.check("direction", () -> switch (r.getDirection()) {
            case DIRECTION_UNSPECIFIED, DIRECTION_NEWEST_FIRST -> true;
            case DIRECTION_OLDEST_FIRST -> false;
            default -> {
                v.add(unknownDirection());
                yield true;
            }
        });
        Long startSeq = v.check("startSeq", () -> {
            if (r.getStartCase() != ListTaskMessagesRequest.StartCase.START_SEQ) {
                return null;
            }
            if (r.getStartSeq() < 0) {
                v.add(new FieldViolation("startSeq", "startSeq must not be negative, got " + r.getStartSeq()));
                return null;
            }
            return r.getStartSeq();
        });
        String startMessageId = v.check("startMessageId", () -> r.getStartCase() == ListTaskMessagesRequest.StartCase.START_MESSAGE_ID
                ? boundedText(v, "startMessageId", r.getStartMessageId()) : null);
        v.throwIfAny();
        return new TranscriptQuery(tenant == null ? "" : tenant, taskId, pageSize == null ? DEFAULT_MESSAGE_PAGE_SIZE : pageSize,
                token, newestFirst == null || newestFirst, startSeq, startMessageId);
    }

    /** "direction must be …": a name or number this service does not know. */
    static FieldViolation unknownDirection() {
        return new FieldViolation("direction", "direction must be " + DIRECTIONS);
    }

    /** An id that names one task: CancelTask's and SubscribeToTask's. */
    public String taskId(String tenant, String id) {
        Violations v = new Violations(List.of());
        boundedText(v, "tenant", tenant);
        String value = boundedText(v, "id", id);
        if (value == null && !v.has("id")) {
            v.add(new FieldViolation("id", "id is required"));
        }
        v.throwIfAny();
        return value;
    }

    /** "status must be one of …": a name or number this service does not know. */
    static FieldViolation unknownState() {
        return new FieldViolation("status", "status must be one of " + STATE_LIST);
    }

    static String outOfRange(String field, int min, int max, String shown) {
        return field + " must be between " + min + " and " + max + ", got " + shown;
    }

    static FieldViolation negativeHistory(String shown) {
        return new FieldViolation("historyLength", "historyLength must not be negative, got " + shown);
    }

    private int effectiveHistory(Integer requested, int defaultLength) {
        return Math.min(requested == null ? defaultLength : requested, history.maxLength());
    }
}
