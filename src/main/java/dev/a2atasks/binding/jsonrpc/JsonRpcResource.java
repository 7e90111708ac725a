package dev.a2atasks.binding.jsonrpc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.BiFunction;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.binding.json.ErrorJson;
import dev.a2atasks.binding.json.HttpError;
import dev.a2atasks.binding.json.HttpServiceParameters;
import dev.a2atasks.binding.json.TaskJson;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.protocol.A2AMethod;
import dev.a2atasks.protocol.Admission;
import dev.a2atasks.protocol.Failures;
import dev.a2atasks.task.TaskQueryService;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The JSON-RPC 2.0 binding at {@code POST /} (spec §9). It reads the envelope, admits the call
 * and hands ProtoJSON params to the shared service; every outcome is a JSON-RPC response.
 *
 * <ul>
 * <li>Errors are JSON-RPC error objects with HTTP 200, except missing or bad credentials
 * (HTTP 401 with WWW-Authenticate, so HTTP clients and proxies see them) and an oversized body
 * (HTTP 413).</li>
 * <li>A batch (a JSON array) is refused with one Invalid Request error: A2A defines none.</li>
 * <li>A notification (a valid request without {@code id}) is not executed (every implemented
 * method is a read) and gets HTTP 204 with no body, since JSON-RPC forbids answering it.</li>
 * </ul>
 */
@Path("/")
public class JsonRpcResource {

    /** Largest request body read; the HTTP server itself stops at quarkus.http.limits.max-body-size. */
    static final int MAX_REQUEST_BYTES = 1024 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Admission admission;
    private final TaskQueryService service;
    private final Failures failures;

    JsonRpcResource(Admission admission, TaskQueryService service, Failures failures) {
        this.admission = admission;
        this.service = service;
        this.failures = failures;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> call(HttpServerRequest http, HttpHeaders headers, byte[] body) {
        if (!isJson(headers.getMediaType())) {
            return Uni.createFrom().item(error(NullNode.instance,
                    JsonRpcError.invalidRequest("Content-Type must be application/json (or application/a2a+json)")));
        }
        if (body.length > MAX_REQUEST_BYTES) {
            return Uni.createFrom().item(Response.status(413).type(MediaType.APPLICATION_JSON)
                    .entity(errorBody(NullNode.instance, JsonRpcError.invalidRequest(
                            "Request body is larger than " + MAX_REQUEST_BYTES + " bytes")))
                    .build());
        }
        JsonNode request;
        try {
            request = MAPPER.readTree(body);
        } catch (IOException e) {
            return Uni.createFrom().item(error(NullNode.instance, JsonRpcError.parse("Request body is not valid JSON")));
        }
        if (request == null || request.isMissingNode()) {
            return Uni.createFrom().item(error(NullNode.instance, JsonRpcError.parse("Request body is empty")));
        }
        if (request.isArray()) {
            return Uni.createFrom().item(error(NullNode.instance, JsonRpcError.invalidRequest(
                    request.isEmpty() ? "Empty batch" : "Batch requests are not supported")));
        }
        if (!request.isObject()) {
            return Uni.createFrom().item(error(NullNode.instance, JsonRpcError.invalidRequest("Request must be a JSON object")));
        }
        JsonNode id = request.get("id");
        JsonNode replyId = id != null && (id.isTextual() || id.isNumber() || id.isNull()) ? id : NullNode.instance;
        JsonRpcError invalid = envelopeError(request);
        if (invalid != null) {
            return Uni.createFrom().item(error(replyId, invalid));
        }
        if (id == null) {
            return Uni.createFrom().item(Response.noContent().build()); // a notification
        }
        String methodName = request.get("method").textValue();
        A2AMethod method = A2AMethod.byWireName(methodName);
        if (method == null) {
            return Uni.createFrom().item(error(id, new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: "
                    + (methodName.length() > 64 ? methodName.substring(0, 64) + "..." : methodName))));
        }
        JsonNode params = request.hasNonNull("params") ? request.get("params") : MAPPER.createObjectNode();
        return admission.admit(HttpServiceParameters.version(http))
                .chain(caller -> invoke(method, caller, params))
                .map(result -> Response.ok(result(id, result), MediaType.APPLICATION_JSON).build())
                .onFailure().recoverWithItem(failure -> error(id, failure));
    }

    private Uni<Writer> invoke(A2AMethod method, Caller caller, JsonNode params) {
        if (!params.isObject()) {
            return Uni.createFrom().failure(A2AException.invalidParam("params", "params must be an object"));
        }
        return switch (method) {
            case LIST_TASKS -> service.listTasks(caller, JsonRpcParams.listTasks(params))
                    .map(page -> json -> TaskJson.writePage(json, page));
            case GET_TASK -> service.getTask(caller, JsonRpcParams.getTask(params))
                    .map(task -> json -> TaskJson.writeTask(json, task));
            default -> Uni.createFrom().failure(new A2AException.UnsupportedOperation(method.wireName()));
        };
    }

    /** Why a parsed object is not a JSON-RPC 2.0 request, or null when it is one. */
    private static JsonRpcError envelopeError(JsonNode request) {
        JsonNode version = request.get("jsonrpc");
        if (version == null || !version.isTextual() || !version.textValue().equals("2.0")) {
            return JsonRpcError.invalidRequest("jsonrpc must be \"2.0\"");
        }
        JsonNode method = request.get("method");
        if (method == null || !method.isTextual()) {
            return JsonRpcError.invalidRequest("method must be a string");
        }
        JsonNode id = request.get("id");
        if (id != null && !(id.isTextual() || id.isNumber() || id.isNull())) {
            return JsonRpcError.invalidRequest("id must be a string, a number or null");
        }
        JsonNode params = request.get("params");
        if (params != null && !params.isNull() && !params.isContainerNode()) {
            return JsonRpcError.invalidRequest("params must be an object");
        }
        return null;
    }

    private static boolean isJson(MediaType type) {
        return type != null && (type.isCompatible(MediaType.APPLICATION_JSON_TYPE)
                || ("application".equals(type.getType()) && "a2a+json".equals(type.getSubtype())));
    }

    /** Writes a result value into the response envelope. */
    private interface Writer {
        void write(JsonGenerator json) throws IOException;
    }

    private static byte[] result(JsonNode id, Writer result) {
        return envelope(id, json -> {
            json.writeFieldName("result");
            result.write(json);
        });
    }

    private static Response error(JsonNode id, JsonRpcError error) {
        return Response.ok(errorBody(id, error), MediaType.APPLICATION_JSON).build();
    }

    private static byte[] errorBody(JsonNode id, JsonRpcError error) {
        return envelope(id, json -> {
            json.writeObjectFieldStart("error");
            json.writeNumberField("code", error.code());
            json.writeStringField("message", error.message());
            json.writeEndObject();
        });
    }

    /**
     * An A2A error as a JSON-RPC error object. HTTP 200, as JSON-RPC wants, except where HTTP
     * itself has the better word for clients and proxies: 401 for credentials, 503 (with
     * Retry-After) while the database is out of reach.
     */
    private Response error(JsonNode id, Throwable failure) {
        A2AException error = failures.classify(failure, "JSON-RPC");
        byte[] body = ErrorJson.jsonRpcBody(id, error).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int status = error instanceof A2AException.Unauthenticated || error instanceof A2AException.Unavailable
                ? error.kind().httpStatus() : 200;
        Response.ResponseBuilder response = Response.status(status).type(MediaType.APPLICATION_JSON).entity(body);
        HttpError.headers(error).forEach(response::header);
        return response.build();
    }

    private static byte[] envelope(JsonNode id, Writer body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator json = MAPPER.getFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("jsonrpc", "2.0");
            json.writeFieldName("id");
            json.writeTree(id);
            body.write(json);
            json.writeEndObject();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
