package dev.a2atasks.error;

/**
 * The A2A error table (specification §5.4) plus the generic errors we use: one row per kind,
 * with its code on each binding and the {@code google.rpc.ErrorInfo} reason where the spec
 * defines one.
 */
public enum ErrorKind {
    // kind                 JSON-RPC  gRPC status           HTTP  ErrorInfo reason
    INVALID_PARAMS(          -32602, "INVALID_ARGUMENT",    400, null),
    TASK_NOT_FOUND(          -32001, "NOT_FOUND",           404, "TASK_NOT_FOUND"),
    UNSUPPORTED_OPERATION(   -32004, "FAILED_PRECONDITION", 400, "UNSUPPORTED_OPERATION"),
    VERSION_NOT_SUPPORTED(   -32009, "FAILED_PRECONDITION", 400, "VERSION_NOT_SUPPORTED"),
    // Not an A2A error type: no reason may be claimed in the A2A domain for it.
    UNAUTHENTICATED(         -32000, "UNAUTHENTICATED",     401, null),
    INTERNAL(                -32603, "INTERNAL",            500, null);

    /** ErrorInfo domain of every A2A error. */
    public static final String DOMAIN = "a2a-protocol.org";

    private final int jsonRpcCode;
    private final String grpcStatus;
    private final int httpStatus;
    private final String reason;

    ErrorKind(int jsonRpcCode, String grpcStatus, int httpStatus, String reason) {
        this.jsonRpcCode = jsonRpcCode;
        this.grpcStatus = grpcStatus;
        this.httpStatus = httpStatus;
        this.reason = reason;
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
}
