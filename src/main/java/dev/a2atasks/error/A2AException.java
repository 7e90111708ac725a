package dev.a2atasks.error;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every error this service reports to a caller. Each binding maps it once, from {@link #kind()}.
 *
 * <p>The hierarchy is closed so the set of things a caller can be told is visible in one place;
 * anything else that escapes to a binding is a bug and is reported as an opaque internal error.
 */
public abstract sealed class A2AException extends RuntimeException
        permits A2AException.InvalidParams, A2AException.TaskNotFound, A2AException.UnsupportedOperation,
        A2AException.TaskNotCancelable, A2AException.ContentTypeNotSupported, A2AException.PushNotificationNotSupported,
        A2AException.ExtensionSupportRequired,
        A2AException.VersionNotSupported, A2AException.Unauthenticated, A2AException.Unavailable,
        A2AException.RateLimited, A2AException.Internal, A2AException.Rejected {

    private final ErrorKind kind;

    private A2AException(ErrorKind kind, String message) {
        super(message, null, false, false); // no stack trace: these are answers, not failures
        this.kind = kind;
    }

    public ErrorKind kind() {
        return kind;
    }

    /** Field violations for a {@code google.rpc.BadRequest} detail; empty for other kinds. */
    public List<FieldViolation> violations() {
        return List.of();
    }

    /** Metadata for the {@code google.rpc.ErrorInfo} detail. */
    public Map<String, String> metadata() {
        return Map.of();
    }

    /** How long the caller should wait before trying again, for errors a retry can cure; else empty. */
    public Optional<Duration> retryAfter() {
        return Optional.empty();
    }

    public static InvalidParams invalidParams(List<FieldViolation> violations) {
        return new InvalidParams(violations);
    }

    public static InvalidParams invalidParam(String field, String description) {
        return new InvalidParams(List.of(new FieldViolation(field, description)));
    }

    /**
     * Request parameters failed validation; each violation names its field. At most
     * {@link #MAX_LISTED} are listed (in the message and the details) and the rest counted, so an
     * answer stays a few KB however many fields a request gets wrong: 10,000 empty parts must not
     * make a 1.7 MB answer or a gRPC trailer too large to send.
     */
    public static final class InvalidParams extends A2AException {
        public static final int MAX_LISTED = 20;
        private final List<FieldViolation> violations;

        private InvalidParams(List<FieldViolation> violations) {
            super(ErrorKind.INVALID_PARAMS, describe(violations));
            this.violations = List.copyOf(violations.subList(0, Math.min(MAX_LISTED, violations.size())));
        }

        private static String describe(List<FieldViolation> violations) {
            if (violations.isEmpty()) {
                throw new IllegalArgumentException("InvalidParams needs at least one violation");
            }
            String listed = String.join("; ", violations.stream().limit(MAX_LISTED).map(FieldViolation::description).toList());
            int more = violations.size() - MAX_LISTED;
            return more > 0 ? listed + "; and " + more + " more" : listed;
        }

        @Override
        public List<FieldViolation> violations() {
            return violations;
        }
    }

    /** The task does not exist or belongs to another caller: the two are deliberately the same. */
    public static final class TaskNotFound extends A2AException {
        private final String taskId;

        public TaskNotFound(String taskId) {
            super(ErrorKind.TASK_NOT_FOUND, "Task not found: " + taskId);
            this.taskId = taskId;
        }

        private TaskNotFound(String taskId, String message) {
            super(ErrorKind.TASK_NOT_FOUND, message);
            this.taskId = taskId;
        }

        /**
         * A webhook registration the caller's own task does not have (spec §3.1.8: TaskNotFound).
         * Only the task's owner can get this answer; anyone else gets the task's.
         */
        public static TaskNotFound pushConfig(String taskId, String configId) {
            return new TaskNotFound(taskId, "Push notification config not found: " + configId + " (task " + taskId + ")");
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("taskId", taskId);
        }
    }

    public static final class UnsupportedOperation extends A2AException {
        private final String method;

        public UnsupportedOperation(String method) {
            this(method, method + " is not supported by this server");
        }

        private UnsupportedOperation(String method, String message) {
            super(ErrorKind.UNSUPPORTED_OPERATION, message);
            this.method = method;
        }

        /** A message to, or a subscription on, a task in a terminal state (spec §3.1.1, §3.1.6). */
        public static UnsupportedOperation taskIsTerminal(String method, String taskId, String state) {
            return new UnsupportedOperation(method, "Task " + taskId + " is in the terminal state " + state
                    + " and takes no further " + (method.equals("SubscribeToTask") ? "subscriptions" : "messages"));
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("method", method);
        }
    }

    /** CancelTask on a task that is already in a terminal state. */
    public static final class TaskNotCancelable extends A2AException {
        private final String taskId;

        public TaskNotCancelable(String taskId, String state) {
            super(ErrorKind.TASK_NOT_CANCELABLE, "Task " + taskId + " cannot be canceled: it is in the terminal state " + state);
            this.taskId = taskId;
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("taskId", taskId);
        }
    }

    /** None of the media types the client accepts (or sent) is one the agent works with. */
    public static final class ContentTypeNotSupported extends A2AException {
        public ContentTypeNotSupported(String message) {
            super(ErrorKind.CONTENT_TYPE_NOT_SUPPORTED, message);
        }
    }

    /** The agent does not offer push notifications (its card says so); the config operations answer this. */
    public static final class PushNotificationNotSupported extends A2AException {
        private final String method;

        public PushNotificationNotSupported(String method) {
            super(ErrorKind.PUSH_NOTIFICATION_NOT_SUPPORTED, "Push notifications are not supported by this agent (" + method + ")");
            this.method = method;
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("method", method);
        }
    }

    /**
     * An operation that belongs to one of this service's extensions, called without declaring the
     * extension ({@code A2A-Extensions} header, {@code a2a-extensions} gRPC metadata; spec §4.6).
     */
    public static final class ExtensionSupportRequired extends A2AException {
        private final String method;
        private final String uri;

        public ExtensionSupportRequired(String method, String uri) {
            super(ErrorKind.EXTENSION_SUPPORT_REQUIRED, method + " belongs to the extension " + uri
                    + "; declare it in the A2A-Extensions header (gRPC metadata a2a-extensions) to use it");
            this.method = method;
            this.uri = uri;
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("method", method, "extension", uri);
        }
    }

    public static final class VersionNotSupported extends A2AException {
        private final String requested;

        public VersionNotSupported(String requested, String supported) {
            super(ErrorKind.VERSION_NOT_SUPPORTED,
                    "A2A version " + requested + " is not supported; this server speaks " + supported);
            this.requested = requested;
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("requestedVersion", requested);
        }
    }

    /** Missing or invalid credentials. */
    public static final class Unauthenticated extends A2AException {
        public Unauthenticated(String message) {
            super(ErrorKind.UNAUTHENTICATED, message);
        }
    }

    /**
     * A dependency this service cannot work without (the database) is unreachable or saturated
     * for now. Nothing was done; the same request may succeed after {@link #retryAfter()}.
     */
    public static final class Unavailable extends A2AException {
        private final Duration retryAfter;

        public Unavailable(Duration retryAfter) {
            this(retryAfter, "its database cannot be reached");
        }

        /** {@code why}: what is unavailable, in a few words ("its database is busy"). */
        public Unavailable(Duration retryAfter, String why) {
            super(ErrorKind.UNAVAILABLE, "The service is temporarily unavailable (" + why + "); retry after " + seconds(retryAfter) + " s");
            this.retryAfter = retryAfter;
        }

        /** Whole seconds, at least 1: what HTTP's Retry-After can say. */
        public static long seconds(Duration delay) {
            return Math.max(1, (delay.toMillis() + 999) / 1000);
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(retryAfter);
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("retryAfterSeconds", Long.toString(seconds(retryAfter)));
        }
    }

    /**
     * The HTTP request itself is refused before any operation runs: no route, a method or media
     * type the route does not take, a URL, header block or body over the limits, bytes that do
     * not decode. Only the binding knows these; they still leave in the one error shape.
     */
    public static final class Rejected extends A2AException {
        public Rejected(ErrorKind kind, String message) {
            super(kind, message);
            if (kind.ordinal() < ErrorKind.MALFORMED_REQUEST.ordinal()) {
                throw new IllegalArgumentException(kind + " is not a refusal of the request itself");
            }
        }

        /** The refusal for an HTTP status the framework chose, worded for the caller. */
        public static Rejected ofHttpStatus(int status) {
            ErrorKind kind = ErrorKind.httpRefusal(status);
            return switch (kind == null ? ErrorKind.MALFORMED_REQUEST : kind) {
                case ROUTE_NOT_FOUND -> new Rejected(ErrorKind.ROUTE_NOT_FOUND, "No A2A operation is served at this path");
                case METHOD_NOT_ALLOWED -> new Rejected(ErrorKind.METHOD_NOT_ALLOWED, "This path does not take this HTTP method");
                case NOT_ACCEPTABLE -> new Rejected(ErrorKind.NOT_ACCEPTABLE,
                        "The Accept header allows none of the media types this operation answers with (application/a2a+json, application/json)");
                case PAYLOAD_TOO_LARGE -> new Rejected(ErrorKind.PAYLOAD_TOO_LARGE, "The request body is larger than this service accepts");
                case URI_TOO_LONG -> new Rejected(ErrorKind.URI_TOO_LONG, "The request line is longer than this service accepts");
                case UNSUPPORTED_MEDIA_TYPE -> new Rejected(ErrorKind.UNSUPPORTED_MEDIA_TYPE,
                        "The request body's Content-Type is not one this operation reads");
                case HEADERS_TOO_LARGE -> new Rejected(ErrorKind.HEADERS_TOO_LARGE, "The request headers are larger than this service accepts");
                default -> new Rejected(ErrorKind.MALFORMED_REQUEST,
                        "The request could not be read: its URL has a bad percent-escape or a character URLs may not carry");
            };
        }
    }

    /**
     * The caller spent its allowance for one class of requests (ListTasks walk starts, pages,
     * GetTask, writes, ...). Nothing was done; the same request will pass after {@link #retryAfter()}.
     * The limit is per caller: other callers are not affected.
     */
    public static final class RateLimited extends A2AException {
        private final String limit;
        private final Duration retryAfter;

        public RateLimited(String limit, Duration retryAfter) {
            super(ErrorKind.RATE_LIMITED, "Too many requests of class '" + limit + "' from this caller; retry after "
                    + retryAfter.toMillis() + " ms");
            this.limit = limit;
            this.retryAfter = retryAfter;
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(retryAfter);
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("limit", limit, "retryAfterMillis", Long.toString(retryAfter.toMillis()));
        }
    }

    /** Something failed on our side; the message never carries internals. */
    public static final class Internal extends A2AException {
        public Internal() {
            super(ErrorKind.INTERNAL, "Internal error");
        }
    }
}
