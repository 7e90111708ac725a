package dev.a2atasks.task;

import dev.a2atasks.time.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.history.HistoryConfig;
import dev.a2atasks.paging.PageTokenCodec;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.validation.Grammar;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Turns raw parameters into a query or an invalid-params error naming every bad field. Runs
 * before any database work; the only validator of ListTasks and GetTask for every binding.
 *
 * <p>Messages never echo text the caller sent (a huge or hostile value stays out of logs and
 * error bodies) and read the same whichever binding carried the value: gRPC cannot even express
 * an unknown enum name or a malformed timestamp, only their binary equivalents.
 */
@ApplicationScoped
public class RequestValidator {

    public static final int DEFAULT_PAGE_SIZE = 50;
    public static final int MAX_PAGE_SIZE = 100;
    /** Longest task id, context id or tenant accepted; longer values cannot name anything stored. */
    public static final int MAX_ID_CHARS = 1024;

    private static final List<String> STATES = Arrays.stream(TaskState.values())
            .filter(s -> s != TaskState.UNRECOGNIZED && s != TaskState.TASK_STATE_UNSPECIFIED)
            .map(Enum::name).toList();
    private static final String STATE_LIST = String.join(", ", STATES);

    private final HistoryConfig history;

    RequestValidator(HistoryConfig history) {
        this.history = history;
    }

    public ListTasksQuery listTasks(ListTasksParams p) {
        List<FieldViolation> violations = new ArrayList<>();
        String tenant = boundedText(violations, "tenant", p.tenant());
        String contextId = boundedText(violations, "contextId", p.contextId());
        String status = state(violations, p.status());
        Integer pageSize = integer(violations, "pageSize", p.pageSize(), 1, MAX_PAGE_SIZE);
        String pageToken = text(violations, PageTokenCodec.FIELD, p.pageToken());
        if (pageToken != null && pageToken.length() > PageTokenCodec.MAX_TOKEN_CHARS) {
            violations.add(new FieldViolation(PageTokenCodec.FIELD, "pageToken is malformed"));
        }
        Integer historyLength = historyLength(violations, p.historyLength());
        Instant after = timestamp(violations, "statusTimestampAfter", p.statusTimestampAfter());
        Boolean includeArtifacts = bool(violations, "includeArtifacts", p.includeArtifacts());
        throwIfAny(violations);
        return new ListTasksQuery(tenant == null ? "" : tenant, contextId, status,
                pageSize == null ? DEFAULT_PAGE_SIZE : pageSize, pageToken,
                effectiveHistory(historyLength, history.defaultListLength()), after,
                includeArtifacts != null && includeArtifacts);
    }

    public GetTaskQuery getTask(GetTaskParams p) {
        List<FieldViolation> violations = new ArrayList<>();
        String tenant = boundedText(violations, "tenant", p.tenant());
        String id = boundedText(violations, "id", p.id());
        if (id == null && violations.stream().noneMatch(v -> v.field().equals("id"))) {
            violations.add(new FieldViolation("id", "id is required"));
        }
        Integer historyLength = historyLength(violations, p.historyLength());
        throwIfAny(violations);
        return new GetTaskQuery(tenant == null ? "" : tenant, id, effectiveHistory(historyLength, history.defaultGetLength()));
    }

    private int effectiveHistory(Integer requested, int defaultLength) {
        return Math.min(requested == null ? defaultLength : requested, history.maxLength());
    }

    private static String boundedText(List<FieldViolation> violations, String field, String value) {
        value = blankToNull(value);
        if (value != null && value.length() > MAX_ID_CHARS) {
            violations.add(new FieldViolation(field, field + " must be at most " + MAX_ID_CHARS + " characters"));
            return null;
        }
        return text(violations, field, value);
    }

    /** Text that PostgreSQL can store and UTF-8 can carry, or null (absent, or refused and recorded). */
    private static String text(List<FieldViolation> violations, String field, String value) {
        value = blankToNull(value);
        String problem = Grammar.textProblem(field, value);
        if (problem != null) {
            violations.add(new FieldViolation(field, problem));
            return null;
        }
        return value;
    }

    private static String state(List<FieldViolation> violations, String value) {
        value = blankToNull(value);
        if (value == null || value.equals(TaskState.TASK_STATE_UNSPECIFIED.name()) || value.equals("0")) {
            return null; // the proto default: no filter
        }
        if (STATES.contains(value)) {
            return value;
        }
        // ProtoJSON also allows an enum's number.
        Integer number = Grammar.int32(value);
        TaskState byNumber = number == null ? null : TaskState.forNumber(number);
        if (byNumber != null) {
            return byNumber.name();
        }
        violations.add(new FieldViolation("status", "status must be one of " + STATE_LIST));
        return null;
    }

    private static Integer integer(List<FieldViolation> violations, String field, String value, int min, int max) {
        value = blankToNull(value);
        if (value == null) {
            return null;
        }
        if (!Grammar.isInteger(value)) {
            violations.add(new FieldViolation(field, field + " must be an integer between " + min + " and " + max));
            return null;
        }
        Integer parsed = Grammar.int32(value);
        if (parsed == null || parsed < min || parsed > max) {
            violations.add(new FieldViolation(field, field + " must be between " + min + " and " + max + ", got " + shown(value)));
            return null;
        }
        return parsed;
    }

    private static Integer historyLength(List<FieldViolation> violations, String value) {
        value = blankToNull(value);
        if (value == null) {
            return null;
        }
        if (!Grammar.isInteger(value)) {
            violations.add(new FieldViolation("historyLength", "historyLength must be a non-negative integer"));
            return null;
        }
        if (value.startsWith("-")) {
            violations.add(new FieldViolation("historyLength", "historyLength must not be negative, got " + shown(value)));
            return null;
        }
        Integer parsed = Grammar.int32(value);
        if (parsed == null) {
            violations.add(new FieldViolation("historyLength",
                    "historyLength must be at most " + Integer.MAX_VALUE + ", got " + shown(value)));
        }
        return parsed;
    }

    /** A number the caller sent, echoed only while short: it is digits, but may be thousands of them. */
    private static String shown(String digits) {
        return digits.length() <= 20 ? digits : "a number of " + digits.length() + " digits";
    }

    private static Instant timestamp(List<FieldViolation> violations, String field, String value) {
        value = blankToNull(value);
        if (value == null) {
            return null;
        }
        // The store keeps microseconds; rounded up so ">= after" keeps its meaning.
        Instant instant = Timestamps.parseRfc3339(value).map(Timestamps::ceilMicros).orElse(null);
        if (instant == null) {
            violations.add(new FieldViolation(field, field + " must be an RFC 3339 timestamp such as 2026-01-31T12:00:00Z"));
        }
        return instant;
    }

    private static Boolean bool(List<FieldViolation> violations, String field, String value) {
        value = blankToNull(value);
        if (value == null) {
            return null;
        }
        if (value.equals("true") || value.equals("false")) {
            return Boolean.valueOf(value);
        }
        violations.add(new FieldViolation(field, field + " must be true or false"));
        return null;
    }

    private static void throwIfAny(List<FieldViolation> violations) {
        if (!violations.isEmpty()) {
            throw A2AException.invalidParams(violations);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
