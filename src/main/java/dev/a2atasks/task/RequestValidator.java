package dev.a2atasks.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.task.HistoryConfig;
import dev.a2atasks.paging.PageTokenCodec;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.time.Timestamps;
import dev.a2atasks.validation.Grammar;
import jakarta.enterprise.context.ApplicationScoped;

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

    RequestValidator(HistoryConfig history) {
        this.history = history;
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

    /** TASK_STATE_UNSPECIFIED is the proto default: no filter. */
    private static TaskState state(Violations v, Optional<TaskState> value) {
        if (value.isEmpty() || value.get() == TaskState.TASK_STATE_UNSPECIFIED) {
            return null;
        }
        if (value.get() == TaskState.UNRECOGNIZED) {
            v.add(unknownState());
            return null;
        }
        return value.get();
    }

    private static Integer pageSize(Violations v, OptionalInt value) {
        if (value.isEmpty()) {
            return null;
        }
        int size = value.getAsInt();
        if (size < 1 || size > MAX_PAGE_SIZE) {
            v.add(new FieldViolation("pageSize", outOfRange("pageSize", 1, MAX_PAGE_SIZE, Integer.toString(size))));
            return null;
        }
        return size;
    }

    private static Integer historyLength(Violations v, OptionalInt value) {
        if (value.isEmpty()) {
            return null;
        }
        if (value.getAsInt() < 0) {
            v.add(negativeHistory(Integer.toString(value.getAsInt())));
            return null;
        }
        return value.getAsInt();
    }

    private static String pageToken(Violations v, String value) {
        String token = text(v, PageTokenCodec.FIELD, value);
        if (token != null && token.length() > PageTokenCodec.MAX_TOKEN_CHARS) {
            v.add(new FieldViolation(PageTokenCodec.FIELD, "pageToken is malformed"));
            return null;
        }
        return token;
    }

    private static String boundedText(Violations v, String field, String value) {
        value = blankToNull(value);
        if (value != null && value.length() > MAX_ID_CHARS) {
            v.add(new FieldViolation(field, field + " must be at most " + MAX_ID_CHARS + " characters"));
            return null;
        }
        return text(v, field, value);
    }

    /** Text that PostgreSQL can store and UTF-8 can carry, or null (absent, or refused and recorded). */
    private static String text(Violations v, String field, String value) {
        value = blankToNull(value);
        String problem = Grammar.textProblem(field, value);
        if (problem != null) {
            v.add(new FieldViolation(field, problem));
            return null;
        }
        return value;
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    /**
     * The violations of one request in field order: a field the binding could not decode is
     * reported as such, and its typed check is skipped (there is no typed value to check).
     */
    private static final class Violations {
        private final List<FieldViolation> undecodable;
        private final List<FieldViolation> found = new ArrayList<>();

        Violations(List<FieldViolation> undecodable) {
            this.undecodable = undecodable;
        }

        <T> T check(String field, java.util.function.Supplier<T> typedCheck) {
            List<FieldViolation> mine = undecodable.stream().filter(u -> u.field().equals(field)).toList();
            if (!mine.isEmpty()) {
                found.addAll(mine);
                return null;
            }
            return typedCheck.get();
        }

        void add(FieldViolation violation) {
            found.add(violation);
        }

        boolean has(String field) {
            return found.stream().anyMatch(f -> f.field().equals(field));
        }

        void throwIfAny() {
            undecodable.stream().filter(u -> !found.contains(u)).forEach(found::add); // a field no check names
            if (!found.isEmpty()) {
                throw A2AException.invalidParams(found);
            }
        }
    }
}
