package dev.a2atasks.binding.jsonrpc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.DeleteTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetExtendedAgentCardRequest;
import dev.a2atasks.proto.v1.GetTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;

import dev.a2atasks.binding.json.ErrorJson;
import dev.a2atasks.binding.json.HttpError;
import dev.a2atasks.binding.json.HttpServiceParameters;
import dev.a2atasks.binding.json.ProtoBodies;
import dev.a2atasks.binding.json.StrictJson;
import dev.a2atasks.binding.json.TaskJson;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.protocol.A2AMethod;
import dev.a2atasks.protocol.A2AOperations;
import dev.a2atasks.protocol.Admission;
import dev.a2atasks.protocol.CallContext;
import dev.a2atasks.protocol.Failures;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
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

    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

    /** One port call per A2A method: decode its params, call, and say how to write the result. */
    private interface Operation {
        Uni<Writer> run(A2AOperations port, CallContext call, JsonNode params);
    }

    /** One port call per streaming A2A method: decode its params, call; each event is written as a result. */
    private interface StreamOperation {
        Multi<StreamResponse> run(A2AOperations port, CallContext call, JsonNode params);
    }

    /** Method name to port call, the JSON-RPC binding's only dispatch: answered methods, then streamed ones. */
    private static final Map<A2AMethod, Operation> OPERATIONS = new EnumMap<>(A2AMethod.class);
    private static final Map<A2AMethod, StreamOperation> STREAMS = new EnumMap<>(A2AMethod.class);

    static {
        STREAMS.put(A2AMethod.SEND_STREAMING_MESSAGE, (port, c, p) -> port.sendStreamingMessage(c, params(p, SendMessageRequest.newBuilder())));
        STREAMS.put(A2AMethod.SUBSCRIBE_TO_TASK, (port, c, p) -> port.subscribeToTask(c, params(p, SubscribeToTaskRequest.newBuilder())));
        OPERATIONS.put(A2AMethod.LIST_TASKS, (port, c, p) -> port.listTasks(c, JsonRpcParams.listTasks(p))
                .map(page -> json -> TaskJson.writePage(json, page)));
        OPERATIONS.put(A2AMethod.GET_TASK, (port, c, p) -> port.getTask(c, JsonRpcParams.getTask(p))
                .map(task -> json -> TaskJson.writeTask(json, task)));
        OPERATIONS.put(A2AMethod.SEND_MESSAGE, (port, c, p) -> port.sendMessage(c, params(p, SendMessageRequest.newBuilder()))
                .map(JsonRpcResource::proto));
        OPERATIONS.put(A2AMethod.CANCEL_TASK, (port, c, p) -> port.cancelTask(c, params(p, CancelTaskRequest.newBuilder()))
                .map(task -> json -> TaskJson.writeTask(json, task)));
        OPERATIONS.put(A2AMethod.CREATE_TASK_PUSH_NOTIFICATION_CONFIG, (port, c, p) -> port.createTaskPushNotificationConfig(c,
                params(p, TaskPushNotificationConfig.newBuilder())).map(JsonRpcResource::proto));
        OPERATIONS.put(A2AMethod.GET_TASK_PUSH_NOTIFICATION_CONFIG, (port, c, p) -> port.getTaskPushNotificationConfig(c,
                params(p, GetTaskPushNotificationConfigRequest.newBuilder())).map(JsonRpcResource::proto));
        OPERATIONS.put(A2AMethod.LIST_TASK_PUSH_NOTIFICATION_CONFIGS, (port, c, p) -> port.listTaskPushNotificationConfigs(c,
                params(p, ListTaskPushNotificationConfigsRequest.newBuilder())).map(JsonRpcResource::proto));
        OPERATIONS.put(A2AMethod.DELETE_TASK_PUSH_NOTIFICATION_CONFIG, (port, c, p) -> port.deleteTaskPushNotificationConfig(c,
                params(p, DeleteTaskPushNotificationConfigRequest.newBuilder())).map(JsonRpcResource::proto));
        OPERATIONS.put(A2AMethod.LIST_TASK_MESSAGES, (port, c, p) -> port.listTaskMessages(c, JsonRpcParams.listTaskMessages(p))
                .map(JsonRpcResource::proto));
        OPERATIONS.put(A2AMethod.GET_EXTENDED_AGENT_CARD, (port, c, p) -> port.getExtendedAgentCard(c,
                params(p, GetExtendedAgentCardRequest.newBuilder())).map(JsonRpcResource::proto));
    }

    private final Admission admission;
    private final A2AOperations port;
    private final Failures failures;

    JsonRpcResource(Admission admission, A2AOperations port, Failures failures) {
        this.admission = admission;
        this.port = port;
        this.failures = failures;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> call(RoutingContext http, HttpHeaders headers, byte[] body) {
        Envelope envelope = open(headers.getMediaType(), body);
        if (envelope instanceof Envelope.Answer answer) {
            return Uni.createFrom().item(answer.response());
        }
        Envelope.Call call = (Envelope.Call) envelope;
        if (STREAMS.containsKey(call.method())) {
            return Uni.createFrom().item(error(call.id(), new JsonRpcError(JsonRpcError.INVALID_REQUEST, call.method().wireName()
                    + " answers with Server-Sent Events: send Accept: text/event-stream")));
        }
        return admission.admit(HttpServiceParameters.of(http))
                .chain(context -> invoke(call.method(), context, call.params()))
                .map(result -> Response.ok(result(call.id(), result), MediaType.APPLICATION_JSON).build())
                .onFailure().recoverWithItem(failure -> error(call.id(), failure));
    }

    /**
     * The same endpoint for a client that accepts Server-Sent Events (spec §9.4.2, §9.4.6), reached
     * through {@link JsonRpcEventRoute}: a
     * streaming method's events, each a JSON-RPC response carrying one StreamResponse, and any
     * error as a last event (the stream has begun by then); any other method's one answer as the
     * only event.
     */
    Multi<String> stream(RoutingContext http, MediaType contentType, byte[] body) {
        Envelope envelope = open(contentType, body);
        if (envelope instanceof Envelope.Answer answer) {
            return Multi.createFrom().failure(new Refusal(answer.response()));
        }
        Envelope.Call call = (Envelope.Call) envelope;
        StreamOperation streaming = STREAMS.get(call.method());
        Multi<String> events = streaming == null
                ? Multi.createFrom().uni(admission.admit(HttpServiceParameters.of(http), HttpServiceParameters.identity(http))
                        .chain(context -> invoke(call.method(), context, call.params()))
                        .map(result -> new String(result(call.id(), result), StandardCharsets.UTF_8)))
                : admission.admit(HttpServiceParameters.of(http), HttpServiceParameters.identity(http)).onItem()
                        .transformToMulti(context -> streaming.run(port, context, paramsObject(call.params())))
                        .map(event -> new String(result(call.id(), proto(event)), StandardCharsets.UTF_8));
        return events.onFailure().transform(failure -> new Refusal(error(call.id(), failure)));
    }

    /**
     * A JSON-RPC error response for a request answered as Server-Sent Events: before the first
     * event it is the whole answer, the same {@code application/json} body a non-streaming call
     * gets (a client library can type it); after it, the stream's last event.
     */
    static final class Refusal extends RuntimeException {
        private final transient Response response;

        Refusal(Response response) {
            super(null, null, false, false);
            this.response = response;
        }

        /** The response as the router writes it when no event was sent yet. */
        HttpError asHttpError() {
            java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
            response.getStringHeaders().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("Content-Type") && !values.isEmpty()) {
                    headers.put(name, values.get(0));
                }
            });
            return new HttpError(response.getStatus(), MediaType.APPLICATION_JSON, headers, text(response).getBytes(StandardCharsets.UTF_8));
        }

        /** The same error as the stream's last event. */
        String asEvent() {
            return text(response);
        }
    }

    /** A request read up to its method: either the answer already (a malformed envelope), or the call to make. */
    private sealed interface Envelope {
        record Answer(Response response) implements Envelope {
        }

        record Call(JsonNode id, A2AMethod method, JsonNode params) implements Envelope {
        }
    }

    private Envelope open(MediaType contentType, byte[] body) {
        if (!isJson(contentType)) {
            return new Envelope.Answer(error(NullNode.instance,
                    JsonRpcError.invalidRequest("Content-Type must be application/json (or application/a2a+json)")));
        }
        if (body.length > MAX_REQUEST_BYTES) {
            return new Envelope.Answer(Response.status(413).type(MediaType.APPLICATION_JSON)
                    .entity(errorBody(NullNode.instance, JsonRpcError.invalidRequest(
                            "Request body is larger than " + MAX_REQUEST_BYTES + " bytes")))
                    .build());
        }
        JsonNode request;
        try {
            request = StrictJson.read(body);
        } catch (StrictJson.Malformed e) {
            return new Envelope.Answer(error(NullNode.instance, JsonRpcError.parse("Request body is not valid JSON: " + e.getMessage())));
        }
        if (request == null || request.isMissingNode()) {
            return new Envelope.Answer(error(NullNode.instance, JsonRpcError.parse("Request body is empty")));
        }
        if (request.isArray()) {
            return new Envelope.Answer(error(NullNode.instance, JsonRpcError.invalidRequest(
                    request.isEmpty() ? "Empty batch" : "Batch requests are not supported")));
        }
        if (!request.isObject()) {
            return new Envelope.Answer(error(NullNode.instance, JsonRpcError.invalidRequest("Request must be a JSON object")));
        }
        JsonNode id = request.get("id");
        JsonNode replyId = id != null && (id.isTextual() || id.isNumber() || id.isNull()) ? id : NullNode.instance;
        JsonRpcError invalid = envelopeError(request);
        if (invalid != null) {
            return new Envelope.Answer(error(replyId, invalid));
        }
        if (id == null) {
            return new Envelope.Answer(Response.noContent().build()); // a notification
        }
        String methodName = request.get("method").textValue();
        A2AMethod method = A2AMethod.byWireName(methodName);
        if (method == null) {
            return new Envelope.Answer(error(id, new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: "
                    + (methodName.length() > 64 ? methodName.substring(0, 64) + "..." : methodName))));
        }
        return new Envelope.Call(id, method, request.hasNonNull("params") ? request.get("params") : MAPPER.createObjectNode());
    }

    private static JsonNode paramsObject(JsonNode params) {
        if (!params.isObject()) {
            throw A2AException.invalidParam("params", "params must be an object");
        }
        return params;
    }

    /** A response's JSON body as one event's data. */
    private static String text(Response response) {
        Object entity = response.getEntity();
        return entity instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : "";
    }

    private Uni<Writer> invoke(A2AMethod method, CallContext call, JsonNode params) {
        if (!params.isObject()) {
            return Uni.createFrom().failure(A2AException.invalidParam("params", "params must be an object"));
        }
        return OPERATIONS.get(method).run(port, call, params);
    }

    private static <M extends Message> M params(JsonNode params, Message.Builder builder) {
        @SuppressWarnings("unchecked")
        M message = (M) ProtoBodies.parse(params.toString(), builder, "params").build();
        return message;
    }

    private static Writer proto(Message message) {
        return json -> json.writeRawValue(PRINTER.print(message));
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

    /** The same rule as the HTTP+JSON binding's bodies ({@link ProtoBodies#isJson}). */
    private static boolean isJson(MediaType type) {
        return type != null && ProtoBodies.isJson(type.getType() + "/" + type.getSubtype());
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
     * Retry-After) while the database is out of reach, 429 (with Retry-After) for a rate limit.
     */
    private Response error(JsonNode id, Throwable failure) {
        A2AException error = failures.classify(failure, "JSON-RPC");
        byte[] body = ErrorJson.jsonRpcBody(id, error).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int status = error instanceof A2AException.Unauthenticated || error instanceof A2AException.Unavailable
                || error instanceof A2AException.RateLimited ? error.kind().httpStatus() : 200;
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
