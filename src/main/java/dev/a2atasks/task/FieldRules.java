package dev.a2atasks.task;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import com.google.protobuf.Value;

import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.paging.PageTokenCodec;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.validation.Grammar;

import static dev.a2atasks.task.RequestValidator.MAX_ID_CHARS;
import static dev.a2atasks.task.RequestValidator.MAX_PAGE_SIZE;
import static dev.a2atasks.task.RequestValidator.MAX_SECRET_CHARS;
import static dev.a2atasks.task.RequestValidator.MAX_URL_CHARS;
import static dev.a2atasks.task.RequestValidator.negativeHistory;
import static dev.a2atasks.task.RequestValidator.outOfRange;
import static dev.a2atasks.task.RequestValidator.unknownState;

/**
 * The field-level rules {@link RequestValidator} applies: text, ids, numbers, JSON values, webhook
 * URLs and header secrets. Each records what is wrong with one field in the request's
 * {@link Violations} and answers the typed value, or null when the field is absent or refused.
 * Kept apart from the operations so that every operation's fields meet the same rule.
 */
final class FieldRules {

    private FieldRules() {
    }

    /** A registration's fields ({@code prefix}: where it sits in the request), or null when its URL is refused. */
    static PushConfigCommand pushConfigFields(Violations v, TaskPushNotificationConfig config, String prefix, boolean taskRequired) {
        String tenant = boundedText(v, prefix + "tenant", config.getTenant());
        String taskId = taskRequired ? required(v, prefix + "taskId", config.getTaskId())
                : boundedText(v, prefix + "taskId", config.getTaskId());
        String id = boundedText(v, prefix + "id", config.getId());
        java.net.URI url = webhookUrl(v, prefix + "url", config.getUrl());
        String scheme = null;
        String credentials = null;
        if (config.hasAuthentication()) {
            String field = prefix + "authentication.scheme";
            scheme = blankToNull(config.getAuthentication().getScheme());
            if (scheme == null) {
                v.add(new FieldViolation(field, field + " is required when authentication is given"));
            } else if (scheme.length() > 64 || !Grammar.isHttpToken(scheme)) {
                v.add(new FieldViolation(field, field + " must be an HTTP authentication scheme name such as Bearer or Basic"));
                scheme = null;
            }
            credentials = headerSecret(v, prefix + "authentication.credentials", config.getAuthentication().getCredentials());
        }
        String token = headerSecret(v, prefix + "token", config.getToken());
        return url == null ? null : new PushConfigCommand(tenant == null ? "" : tenant, taskId, id, url, scheme, credentials, token);
    }


    /**
     * An absolute http or https URL with a host and no user info (credentials in a URL would end
     * up in logs; they belong in {@code authentication}). Whether its host may be called is
     * decided on its addresses, by the push package, at registration and again at delivery.
     */
    static java.net.URI webhookUrl(Violations v, String field, String value) {
        String text = text(v, field, value);
        if (text == null) {
            if (!v.has(field)) {
                v.add(new FieldViolation(field, field + " is required"));
            }
            return null;
        }
        String shape = field + " must be an absolute http or https URL with a host, at most " + MAX_URL_CHARS + " characters";
        if (text.length() > MAX_URL_CHARS || Grammar.hasControlCharacter(text)) {
            v.add(new FieldViolation(field, shape));
            return null;
        }
        java.net.URI url;
        try {
            url = new java.net.URI(text);
        } catch (java.net.URISyntaxException e) {
            v.add(new FieldViolation(field, shape));
            return null;
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            v.add(new FieldViolation(field, field + " must use http or https"));
            return null;
        }
        if (url.getHost() == null || url.getHost().isEmpty() || url.isOpaque()) {
            v.add(new FieldViolation(field, shape));
            return null;
        }
        if (url.getRawUserInfo() != null) {
            v.add(new FieldViolation(field, field + " must not carry user info; put credentials in authentication"));
            return null;
        }
        if (url.getPort() != -1 && (url.getPort() < 1 || url.getPort() > 65535)) { // -1: none given, the scheme's
            v.add(new FieldViolation(field, field + " must name a port from 1 to 65535, or none"));
            return null;
        }
        return url;
    }


    /** Optional text that will be sent as a header value. Never echoed: it is a secret. */
    static String headerSecret(Violations v, String field, String value) {
        String text = text(v, field, value);
        if (text != null && (text.length() > MAX_SECRET_CHARS || !Grammar.isHeaderValue(text))) {
            v.add(new FieldViolation(field, field + " must be at most " + MAX_SECRET_CHARS
                    + " characters of visible ASCII (spaces inside only): it is sent as an HTTP header"));
            return null;
        }
        return text;
    }


    static String required(Violations v, String field, String value) {
        String text = boundedText(v, field, value);
        if (text == null && !v.has(field)) {
            v.add(new FieldViolation(field, field + " is required"));
        }
        return text;
    }


    static void eachText(Violations v, String field, List<String> values) {
        for (int i = 0; i < values.size(); i++) {
            text(v, field + "[" + i + "]", values.get(i));
        }
    }


    /**
     * Every key, string and number inside a JSON value: PostgreSQL's jsonb refuses {@code \u0000}
     * just as text refuses NUL, so metadata and data parts meet the same grammar as every other
     * text; and a JSON value holds finite numbers only.
     */
    static void structured(Violations v, String field, Value value) {
        String problem = structureProblem(field, value);
        if (problem != null) {
            v.add(new FieldViolation(field, problem)); // named by its field, never by a key the caller chose
        }
    }


    static String structureProblem(String field, Value value) {
        switch (value.getKindCase()) {
            case STRING_VALUE:
                return Grammar.textProblem(field, value.getStringValue());
            case NUMBER_VALUE: // JSON has no NaN or Infinity: a gRPC double can carry them, a JSON 1e400 overflows to one
                return Double.isFinite(value.getNumberValue()) ? null : field + " must hold finite numbers only (no NaN or Infinity)";
            case STRUCT_VALUE:
                for (var entry : value.getStructValue().getFieldsMap().entrySet()) {
                    String problem = Grammar.textProblem(field, entry.getKey());
                    if (problem == null) {
                        problem = structureProblem(field, entry.getValue());
                    }
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            case LIST_VALUE:
                for (Value inner : value.getListValue().getValuesList()) {
                    String problem = structureProblem(field, inner);
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            default:
                return null;
        }
    }


    /** TASK_STATE_UNSPECIFIED is the proto default: no filter. */
    static TaskState state(Violations v, Optional<TaskState> value) {
        if (value.isEmpty() || value.get() == TaskState.TASK_STATE_UNSPECIFIED) {
            return null;
        }
        if (value.get() == TaskState.UNRECOGNIZED) {
            v.add(unknownState());
            return null;
        }
        return value.get();
    }


    static Integer pageSize(Violations v, OptionalInt value) {
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


    static Integer historyLength(Violations v, OptionalInt value) {
        if (value.isEmpty()) {
            return null;
        }
        if (value.getAsInt() < 0) {
            v.add(negativeHistory(Integer.toString(value.getAsInt())));
            return null;
        }
        return value.getAsInt();
    }


    static String pageToken(Violations v, String value) {
        String token = text(v, PageTokenCodec.FIELD, value);
        if (token != null && token.length() > PageTokenCodec.MAX_TOKEN_CHARS) {
            v.add(new FieldViolation(PageTokenCodec.FIELD, "pageToken is malformed"));
            return null;
        }
        return token;
    }


    static String boundedText(Violations v, String field, String value) {
        value = blankToNull(value);
        if (value != null && value.length() > MAX_ID_CHARS) {
            v.add(new FieldViolation(field, field + " must be at most " + MAX_ID_CHARS + " characters"));
            return null;
        }
        return text(v, field, value);
    }


    /** Text that PostgreSQL can store and UTF-8 can carry, or null (absent, or refused and recorded). */
    static String text(Violations v, String field, String value) {
        value = blankToNull(value);
        String problem = Grammar.textProblem(field, value);
        if (problem != null) {
            v.add(new FieldViolation(field, problem));
            return null;
        }
        return value;
    }


    static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
