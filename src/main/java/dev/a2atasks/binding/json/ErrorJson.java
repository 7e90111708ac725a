package dev.a2atasks.binding.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorKind;
import dev.a2atasks.error.FieldViolation;

/**
 * The ProtoJSON form of an error's {@code google.rpc} details, shared by the two JSON bindings:
 * the HTTP+JSON error body carries it as {@code error.details}, JSON-RPC as {@code error.data}.
 */
public final class ErrorJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ErrorJson() {
    }

    public static ArrayNode details(A2AException error) {
        ArrayNode details = NODES.arrayNode();
        if (error.kind().reason() != null) {
            ObjectNode info = details.addObject()
                    .put("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                    .put("reason", error.kind().reason())
                    .put("domain", ErrorKind.DOMAIN);
            if (!error.metadata().isEmpty()) {
                ObjectNode metadata = info.putObject("metadata");
                error.metadata().forEach(metadata::put);
            }
        }
        if (!error.violations().isEmpty()) {
            ArrayNode violations = details.addObject()
                    .put("@type", "type.googleapis.com/google.rpc.BadRequest")
                    .putArray("fieldViolations");
            for (FieldViolation v : error.violations()) {
                violations.addObject().put("field", v.field()).put("description", v.description());
            }
        }
        return details;
    }

    /** {@code {"error":{"code","status","message","details"}}}, the HTTP+JSON error body (spec §11.6). */
    public static ObjectNode httpBody(A2AException error) {
        ObjectNode body = NODES.objectNode();
        body.putObject("error")
                .put("code", error.kind().httpStatus())
                .put("status", error.kind().grpcStatus())
                .put("message", error.getMessage())
                .set("details", details(error));
        return body;
    }
}
