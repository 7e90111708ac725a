package dev.a2atasks.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.grpc.Status;

/** The error table against the A2A specification's mapping (§5.4) and its own rules. */
class ErrorKindUnitTest {

    @Test
    void a2aErrorsAreMappedAsTheSpecificationSays() {
        row(ErrorKind.INVALID_PARAMS, -32602, "INVALID_ARGUMENT", 400, null);
        row(ErrorKind.TASK_NOT_FOUND, -32001, "NOT_FOUND", 404, "TASK_NOT_FOUND");
        row(ErrorKind.TASK_NOT_CANCELABLE, -32002, "FAILED_PRECONDITION", 400, "TASK_NOT_CANCELABLE");
        row(ErrorKind.CONTENT_TYPE_NOT_SUPPORTED, -32005, "INVALID_ARGUMENT", 400, "CONTENT_TYPE_NOT_SUPPORTED");
        row(ErrorKind.PUSH_NOTIFICATION_NOT_SUPPORTED, -32003, "FAILED_PRECONDITION", 400, "PUSH_NOTIFICATION_NOT_SUPPORTED");
        row(ErrorKind.UNSUPPORTED_OPERATION, -32004, "FAILED_PRECONDITION", 400, "UNSUPPORTED_OPERATION");
        row(ErrorKind.VERSION_NOT_SUPPORTED, -32009, "FAILED_PRECONDITION", 400, "VERSION_NOT_SUPPORTED");
        row(ErrorKind.INTERNAL, -32603, "INTERNAL", 500, null);
    }

    @Test
    void everyRowIsConsistent() {
        Set<String> reasons = new HashSet<>();
        for (ErrorKind kind : ErrorKind.values()) {
            Status.Code.valueOf(kind.grpcStatus()); // a real gRPC status name
            assertEquals(kind.reason() == null, kind.domain() == null, kind + ": a reason has a domain and vice versa");
            if (kind.reason() != null) {
                assertTrue(kind.reason().matches("[A-Z][A-Z_]*"), kind + " reason in UPPER_SNAKE_CASE");
                assertTrue(reasons.add(kind.reason()), kind + " reason is unique");
            }
            if (ErrorKind.DOMAIN.equals(kind.domain())) {
                assertTrue(kind.jsonRpcCode() <= -32001 && kind.jsonRpcCode() >= -32099, kind + ": A2A errors use A2A's codes");
            }
        }
        assertEquals(ErrorKind.SERVICE_DOMAIN, ErrorKind.UNAVAILABLE.domain());
        assertTrue(ErrorKind.UNAVAILABLE.jsonRpcCode() > -32000, "outside the range JSON-RPC reserves");
        row(ErrorKind.RATE_LIMITED, -31429, "RESOURCE_EXHAUSTED", 429, "RATE_LIMITED");
        assertEquals(ErrorKind.SERVICE_DOMAIN, ErrorKind.RATE_LIMITED.domain());
        assertNull(ErrorKind.UNAUTHENTICATED.reason(), "not an A2A error type");
        assertEquals(ErrorKind.ROUTE_NOT_FOUND, ErrorKind.httpRefusal(404));
        assertNull(ErrorKind.httpRefusal(500));
    }

    private static void row(ErrorKind kind, int jsonRpc, String grpc, int http, String reason) {
        assertEquals(jsonRpc, kind.jsonRpcCode(), kind.name());
        assertEquals(grpc, kind.grpcStatus(), kind.name());
        assertEquals(http, kind.httpStatus(), kind.name());
        assertEquals(reason, kind.reason(), kind.name());
    }
}
