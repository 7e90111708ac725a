package dev.a2atasks.binding.json;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorDetails;

/**
 * The ProtoJSON form of an error's {@code google.rpc} details, shared by the two JSON bindings:
 * the HTTP+JSON error body carries them as {@code error.details}, JSON-RPC as {@code error.data}.
 */
public final class ErrorJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace()
            .usingTypeRegistry(JsonFormat.TypeRegistry.newBuilder()
                    .add(ErrorInfo.getDescriptor()).add(BadRequest.getDescriptor()).add(RetryInfo.getDescriptor()).build());

    private ErrorJson() {
    }

    public static ArrayNode details(A2AException error) {
        ArrayNode details = JsonNodeFactory.instance.arrayNode();
        try {
            for (Any detail : ErrorDetails.of(error)) {
                details.add(MAPPER.readTree(PRINTER.print(detail)));
            }
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return details;
    }

    /** {@code {"jsonrpc":"2.0","id":id,"error":{"code","message","data"}}}, the JSON-RPC error response (spec §9). */
    public static ObjectNode jsonRpcBody(com.fasterxml.jackson.databind.JsonNode id, A2AException error) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0");
        body.set("id", id);
        body.putObject("error")
                .put("code", error.kind().jsonRpcCode())
                .put("message", error.getMessage())
                .set("data", details(error));
        return body;
    }

    /** {@code {"error":{"code","status","message","details"}}}, the HTTP+JSON error body (spec §11.6). */
    public static ObjectNode httpBody(A2AException error) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("error")
                .put("code", error.kind().httpStatus())
                .put("status", error.kind().grpcStatus())
                .put("message", error.getMessage())
                .set("details", details(error));
        return body;
    }
}
