package dev.a2atasks.error;

import java.util.List;
import java.util.Map;

/**
 * Every error this service reports to a caller. Each binding maps it once, from {@link #kind()}.
 *
 * <p>The hierarchy is closed so the set of things a caller can be told is visible in one place;
 * anything else that escapes to a binding is a bug and is reported as an opaque internal error.
 */
public abstract sealed class A2AException extends RuntimeException
        permits A2AException.InvalidParams, A2AException.TaskNotFound, A2AException.UnsupportedOperation,
        A2AException.VersionNotSupported, A2AException.Unauthenticated, A2AException.Internal {

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

    public static InvalidParams invalidParams(List<FieldViolation> violations) {
        return new InvalidParams(violations);
    }

    public static InvalidParams invalidParam(String field, String description) {
        return new InvalidParams(List.of(new FieldViolation(field, description)));
    }

    /** Request parameters failed validation; each violation names its field. */
    public static final class InvalidParams extends A2AException {
        private final List<FieldViolation> violations;

        private InvalidParams(List<FieldViolation> violations) {
            super(ErrorKind.INVALID_PARAMS, describe(violations));
            this.violations = List.copyOf(violations);
        }

        private static String describe(List<FieldViolation> violations) {
            if (violations.isEmpty()) {
                throw new IllegalArgumentException("InvalidParams needs at least one violation");
            }
            return String.join("; ", violations.stream().map(FieldViolation::description).toList());
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

        @Override
        public Map<String, String> metadata() {
            return Map.of("taskId", taskId);
        }
    }

    public static final class UnsupportedOperation extends A2AException {
        private final String method;

        public UnsupportedOperation(String method) {
            super(ErrorKind.UNSUPPORTED_OPERATION, method + " is not supported by this server");
            this.method = method;
        }

        @Override
        public Map<String, String> metadata() {
            return Map.of("method", method);
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

    /** Something failed on our side; the message never carries internals. */
    public static final class Internal extends A2AException {
        public Internal() {
            super(ErrorKind.INTERNAL, "Internal error");
        }
    }
}
