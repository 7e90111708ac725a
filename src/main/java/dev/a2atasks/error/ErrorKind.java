package dev.a2atasks.error;

/**
 * The A2A error table (specification §5.4) plus the generic errors we use: one row per kind,
 * with its code on each binding and the {@code google.rpc.ErrorInfo} reason where the spec
 * defines one.
 */
public enum ErrorKind {
    // kind                 JSON-RPC  gRPC status           HTTP  ErrorInfo reason                 ErrorInfo domain
    INVALID_PARAMS(          -32602, "INVALID_ARGUMENT",    400, null,                    null),
    TASK_NOT_FOUND(          -32001, "NOT_FOUND",           404, "TASK_NOT_FOUND",        ErrorKind.DOMAIN),
    TASK_NOT_CANCELABLE(     -32002, "FAILED_PRECONDITION", 400, "TASK_NOT_CANCELABLE",   ErrorKind.DOMAIN),
    PUSH_NOTIFICATION_NOT_SUPPORTED(-32003, "FAILED_PRECONDITION", 400, "PUSH_NOTIFICATION_NOT_SUPPORTED", ErrorKind.DOMAIN),
    UNSUPPORTED_OPERATION(   -32004, "FAILED_PRECONDITION", 400, "UNSUPPORTED_OPERATION", ErrorKind.DOMAIN),
    CONTENT_TYPE_NOT_SUPPORTED(-32005, "INVALID_ARGUMENT",  400, "CONTENT_TYPE_NOT_SUPPORTED", ErrorKind.DOMAIN),
    EXTENSION_SUPPORT_REQUIRED(-32008, "FAILED_PRECONDITION", 400, "EXTENSION_SUPPORT_REQUIRED", ErrorKind.DOMAIN),
    VERSION_NOT_SUPPORTED(   -32009, "FAILED_PRECONDITION", 400, "VERSION_NOT_SUPPORTED", ErrorKind.DOMAIN),
    // Not an A2A error type: no reason may be claimed in the A2A domain for it.
    UNAUTHENTICATED(         -32000, "UNAUTHENTICATED",     401, null,                    null),
    // Not an A2A error type either. The JSON-RPC code lies outside the range JSON-RPC reserves
    // (-32768..-32000, of which A2A claims -32001..-32099), so no future A2A code can collide;
    // the ErrorInfo (this service's domain) and RetryInfo say that a retry will do.
    UNAVAILABLE(             -31503, "UNAVAILABLE",         503, "UNAVAILABLE",           ErrorKind.SERVICE_DOMAIN),
    // This caller sent more requests of one class than its limit allows (docs/operations.md, "Rate limits").
    // Same reasoning for the code: -31429 mirrors HTTP 429 as -31503 mirrors 503.
    RATE_LIMITED(            -31429, "RESOURCE_EXHAUSTED",  429, "RATE_LIMITED",          ErrorKind.SERVICE_DOMAIN),
    INTERNAL(                -32603, "INTERNAL",            500, null,                    null),
    // Refusals of the HTTP request itself, before any operation: same body shape as every error.
    MALFORMED_REQUEST(       -32600, "INVALID_ARGUMENT",    400, null,                    null),
    ROUTE_NOT_FOUND(         -32601, "NOT_FOUND",           404, null,                    null),
    METHOD_NOT_ALLOWED(      -32601, "UNIMPLEMENTED",       405, null,                    null),
    NOT_ACCEPTABLE(          -32600, "INVALID_ARGUMENT",    406, null,                    null),
    PAYLOAD_TOO_LARGE(       -32600, "INVALID_ARGUMENT",    413, null,                    null),
    URI_TOO_LONG(            -32600, "INVALID_ARGUMENT",    414, null,                    null),
    UNSUPPORTED_MEDIA_TYPE(  -32600, "INVALID_ARGUMENT",    415, null,                    null),
    HEADERS_TOO_LARGE(       -32600, "INVALID_ARGUMENT",    431, null,                    null);

    /** ErrorInfo domain of every A2A error. */
    public static final String DOMAIN = "a2a-protocol.org";
    /** ErrorInfo domain of this service's own errors, which the A2A specification does not define. */
    public static final String SERVICE_DOMAIN = "a2atasks.dev";

    private final int jsonRpcCode;
    private final String grpcStatus;
    private final int httpStatus;
    private final String reason;
    private final String domain;

    ErrorKind(int jsonRpcCode, String grpcStatus, int httpStatus, String reason, String domain) {
        this.jsonRpcCode = jsonRpcCode;
        this.grpcStatus = grpcStatus;
        this.httpStatus = httpStatus;
        this.reason = reason;
        this.domain = domain;
    }

    /** The HTTP-level refusal kind for this status code, or null when it is not one. */
    public static ErrorKind httpRefusal(int httpStatus) {
        for (ErrorKind kind : values()) {
            if (kind.ordinal() >= MALFORMED_REQUEST.ordinal() && kind.httpStatus == httpStatus) {
                return kind;
            }
        }
        return null;
    }

    public int jsonRpcCode() {
        return jsonRpcCode;
    }

    /** Name of the {@code io.grpc.Status.Code} (and of the HTTP body's {@code status}). */
    public String grpcStatus() {
        return grpcStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** The ErrorInfo reason, or null where the error carries no ErrorInfo. */
    public String reason() {
        return reason;
    }

    /** The ErrorInfo domain; null exactly where {@link #reason()} is. */
    public String domain() {
        return domain;
    }
}
