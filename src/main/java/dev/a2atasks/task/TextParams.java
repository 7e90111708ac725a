package dev.a2atasks.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.time.Timestamps;
import dev.a2atasks.validation.Grammar;

/**
 * Decodes request values that arrive as text (HTTP+JSON query strings, JSON-RPC scalars) into
 * typed parameters, by the one grammar of {@link Grammar}: the only text-to-type step, shared by
 * both JSON bindings. A value that is not of its type becomes an {@code undecodable} violation
 * for the validator to report; range rules (pageSize 1–100, historyLength ≥ 0) are the
 * validator's, applied to the typed value whichever binding sent it.
 *
 * <p>An empty string counts as absent, as a proto3 default does on gRPC.
 */
public final class TextParams {

    private TextParams() {
    }

    public static ListTasksParams listTasks(String tenant, String contextId, String status, String pageSize,
            String pageToken, String historyLength, String statusTimestampAfter, String includeArtifacts) {
        List<FieldViolation> undecodable = new ArrayList<>();
        return new ListTasksParams(tenant, contextId, state(undecodable, status),
                int32(undecodable, "pageSize", pageSize, 1, RequestValidator.MAX_PAGE_SIZE), pageToken,
                historyLength(undecodable, historyLength),
                timestamp(undecodable, "statusTimestampAfter", statusTimestampAfter),
                bool(undecodable, "includeArtifacts", includeArtifacts), undecodable);
    }

    /**
     * ListTaskPushNotificationConfigs from query text. A pageSize that is no int32 at all is
     * refused here (no typed value can hold it); the validator judges every other value.
     */
    public static ListTaskPushNotificationConfigsRequest listPushConfigs(String tenant, String taskId, String pageSize, String pageToken) {
        List<FieldViolation> undecodable = new ArrayList<>();
        OptionalInt size = int32(undecodable, "pageSize", pageSize, 1, RequestValidator.MAX_PAGE_SIZE);
        if (!undecodable.isEmpty()) {
            throw A2AException.invalidParams(undecodable);
        }
        ListTaskPushNotificationConfigsRequest.Builder request = ListTaskPushNotificationConfigsRequest.newBuilder()
                .setTenant(tenant == null ? "" : tenant).setTaskId(taskId == null ? "" : taskId)
                .setPageToken(pageToken == null ? "" : pageToken);
        if (size.isPresent()) {
            // Written out, 0 is out of range, as for ListTasks; on gRPC and JSON-RPC the proto
            // cannot tell 0 from absent, and there it means the default.
            if (size.getAsInt() == 0) {
                throw A2AException.invalidParam("pageSize", RequestValidator.outOfRange("pageSize", 1, RequestValidator.MAX_PAGE_SIZE, "0"));
            }
            request.setPageSize(size.getAsInt());
        }
        return request.build();
    }

    /**
     * ListTaskMessages (history-paging extension) from text: what no typed value can hold (a
     * non-integer, a direction name this service does not know, both starting points at once) is
     * undecodable, for the validator to report in its field's place; it judges the typed request
     * exactly as it judges gRPC's.
     */
    public static TranscriptParams listTaskMessages(String tenant, String taskId, String pageSize, String pageToken,
            String direction, String startSeq, String startMessageId) {
        List<FieldViolation> undecodable = new ArrayList<>();
        OptionalInt size = int32(undecodable, "pageSize", pageSize, 1, RequestValidator.MAX_MESSAGE_PAGE_SIZE);
        Direction way = direction(undecodable, direction);
        Long seq = null;
        if (!isAbsent(startSeq)) {
            seq = Grammar.int64(startSeq);
            if (seq == null) {
                undecodable.add(new FieldViolation("startSeq", "startSeq must be a non-negative integer"));
            }
        }
        if (!isAbsent(startSeq) && !isAbsent(startMessageId)) {
            undecodable.add(new FieldViolation("startMessageId", "startSeq and startMessageId are alternatives: give one of them"));
        }
        ListTaskMessagesRequest.Builder request = ListTaskMessagesRequest.newBuilder()
                .setTenant(tenant == null ? "" : tenant).setTaskId(taskId == null ? "" : taskId)
                .setPageToken(pageToken == null ? "" : pageToken).setDirection(way);
        size.ifPresent(request::setPageSize);
        if (seq != null) {
            request.setStartSeq(seq);
        } else if (!isAbsent(startMessageId)) {
            request.setStartMessageId(startMessageId);
        }
        return new TranscriptParams(request.build(), undecodable);
    }

    /** A direction by name or, as ProtoJSON also allows, by number. */
    private static Direction direction(List<FieldViolation> undecodable, String value) {
        if (isAbsent(value)) {
            return Direction.DIRECTION_UNSPECIFIED;
        }
        for (Direction direction : Direction.values()) {
            if (direction != Direction.UNRECOGNIZED && direction.name().equals(value)) {
                return direction;
            }
        }
        Integer number = Grammar.int32(value);
        Direction byNumber = number == null ? null : Direction.forNumber(number);
        if (byNumber != null) {
            return byNumber;
        }
        undecodable.add(RequestValidator.unknownDirection());
        return Direction.DIRECTION_UNSPECIFIED;
    }

    public static GetTaskParams getTask(String tenant, String id, String historyLength) {
        List<FieldViolation> undecodable = new ArrayList<>();
        return new GetTaskParams(tenant, id, historyLength(undecodable, historyLength), undecodable);
    }

    /** A state by name or, as ProtoJSON also allows, by number. */
    private static Optional<TaskState> state(List<FieldViolation> undecodable, String value) {
        if (isAbsent(value)) {
            return Optional.empty();
        }
        for (TaskState state : TaskState.values()) {
            if (state != TaskState.UNRECOGNIZED && state.name().equals(value)) {
                return Optional.of(state);
            }
        }
        Integer number = Grammar.int32(value);
        TaskState byNumber = number == null ? null : TaskState.forNumber(number);
        if (byNumber != null) {
            return Optional.of(byNumber);
        }
        undecodable.add(RequestValidator.unknownState());
        return Optional.empty();
    }

    /** An int32; one outside int32 is refused here, since no typed value can hold it. */
    private static OptionalInt int32(List<FieldViolation> undecodable, String field, String value, int min, int max) {
        if (isAbsent(value)) {
            return OptionalInt.empty();
        }
        if (!Grammar.isInteger(value)) {
            undecodable.add(new FieldViolation(field, field + " must be an integer between " + min + " and " + max));
            return OptionalInt.empty();
        }
        Integer parsed = Grammar.int32(value);
        if (parsed == null) {
            undecodable.add(new FieldViolation(field, RequestValidator.outOfRange(field, min, max, shown(value))));
            return OptionalInt.empty();
        }
        return OptionalInt.of(parsed);
    }

    private static OptionalInt historyLength(List<FieldViolation> undecodable, String value) {
        if (isAbsent(value)) {
            return OptionalInt.empty();
        }
        if (!Grammar.isInteger(value)) {
            undecodable.add(new FieldViolation("historyLength", "historyLength must be a non-negative integer"));
            return OptionalInt.empty();
        }
        Integer parsed = Grammar.int32(value);
        if (parsed == null) {
            undecodable.add(value.startsWith("-") ? RequestValidator.negativeHistory(shown(value))
                    : new FieldViolation("historyLength", "historyLength must be at most " + Integer.MAX_VALUE + ", got " + shown(value)));
            return OptionalInt.empty();
        }
        return OptionalInt.of(parsed);
    }

    private static Optional<Instant> timestamp(List<FieldViolation> undecodable, String field, String value) {
        if (isAbsent(value)) {
            return Optional.empty();
        }
        Optional<Instant> instant = Timestamps.parseRfc3339(value);
        if (instant.isEmpty()) {
            undecodable.add(new FieldViolation(field, Grammar.notATimestamp(field)));
        }
        return instant;
    }

    private static Optional<Boolean> bool(List<FieldViolation> undecodable, String field, String value) {
        if (isAbsent(value)) {
            return Optional.empty();
        }
        if (value.equals("true") || value.equals("false")) {
            return Optional.of(Boolean.valueOf(value));
        }
        undecodable.add(new FieldViolation(field, field + " must be true or false"));
        return Optional.empty();
    }

    /** A number the caller sent, echoed only while short: it is digits, but may be thousands of them. */
    private static String shown(String digits) {
        return digits.length() <= 20 ? digits : "a number of " + digits.length() + " digits";
    }

    private static boolean isAbsent(String value) {
        return value == null || value.isEmpty();
    }
}
