package dev.a2atasks.execution;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;

import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.SendMessageResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.ApiError;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.JsonRpc;
import dev.a2atasks.support.Tokens;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * SendMessage and CancelTask, with the built-in demo agent, on all three bindings: the same
 * outcome and, for every refusal, the same status, message, reason and field on each.
 */
@QuarkusTest
class WritePathParityTest extends BindingTest {

    private static final String BINDINGS_TENANT = "WritePathParityTest";

    /** A binding's answer: the response, or the error normalized (status, message, reason, fields). */
    record Outcome(SendMessageResponse response, Task task, Said error) {
    }

    record Said(String status, String message, String reason, List<String> fields) {
    }

    static Stream<String> bindingNames() {
        return bindings();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingNames")
    void aNewTaskIsWorkedOnToCompletionAndListed(String binding) {
        String bearer = bearer(binding, "alice");
        SendMessageResponse response = send(binding, bearer, request(message("hello agent", null, null))).response();
        Task task = response.getTask();
        assertEquals(TaskState.TASK_STATE_COMPLETED, task.getStatus().getState(), task.toString());
        assertFalse(task.getId().isEmpty());
        assertFalse(task.getContextId().isEmpty(), "a context is generated");
        assertEquals(1, task.getArtifactsCount());
        assertEquals("hello agent", task.getArtifacts(0).getPartsList().stream().map(Part::getText).reduce("", String::concat),
                "three chunks appended in order");
        assertEquals(Role.ROLE_USER, task.getHistory(0).getRole());
        assertEquals("hello agent", task.getHistory(0).getParts(0).getText());
        assertEquals(task.getId(), task.getHistory(0).getTaskId());
        assertTrue(task.getHistoryList().stream().anyMatch(m -> m.getRole() == Role.ROLE_AGENT), "the agent's messages are history");
        // ListTasks sees it at once, newest first.
        assertEquals(task.getId(), api(binding).list(bearer, java.util.Map.of()).getTasks(0).getId());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingNames")
    void aContextIdIsKeptAndHistoryLengthApplies(String binding) {
        String bearer = bearer(binding, "alice");
        SendMessageRequest request = request(message("keep my context", null, "ctx-given")).toBuilder()
                .setConfiguration(SendMessageConfiguration.newBuilder().setHistoryLength(1)).build();
        Task task = send(binding, bearer, request).response().getTask();
        assertEquals("ctx-given", task.getContextId());
        assertEquals(1, task.getHistoryCount(), "historyLength 1: the newest message only");
        assertEquals(Role.ROLE_AGENT, task.getHistory(0).getRole());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingNames")
    void inputRequiredThenContinuedThenTerminal(String binding) {
        String bearer = bearer(binding, "alice");
        Task asked = send(binding, bearer, request(message("I need input", null, null))).response().getTask();
        assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, asked.getStatus().getState());

        Message answer = message("here is more", asked.getId(), null);
        Task done = send(binding, bearer, request(answer)).response().getTask();
        assertEquals(asked.getId(), done.getId());
        assertEquals(asked.getContextId(), done.getContextId());
        assertEquals(TaskState.TASK_STATE_COMPLETED, done.getStatus().getState());
        int history = done.getHistoryCount();

        // The same message again (a retry): nothing appended, the task as it is.
        Task again = send(binding, bearer, request(answer)).response().getTask();
        assertEquals(history, again.getHistoryCount());
        assertEquals(TaskState.TASK_STATE_COMPLETED, again.getStatus().getState());

        // A new message to the terminal task.
        Said refused = send(binding, bearer, request(message("more?", asked.getId(), null))).error();
        assertEquals(new Said("FAILED_PRECONDITION", "Task " + asked.getId()
                + " is in the terminal state TASK_STATE_COMPLETED and takes no further messages", "UNSUPPORTED_OPERATION", List.of()),
                refused);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingNames")
    void aDirectReplyAndAFailure(String binding) {
        String bearer = bearer(binding, "alice");
        SendMessageResponse reply = send(binding, bearer, request(message("please reply", null, null))).response();
        assertTrue(reply.hasMessage(), reply.toString());
        assertEquals(Role.ROLE_AGENT, reply.getMessage().getRole());
        assertEquals("You said: please reply", reply.getMessage().getParts(0).getText());

        Task failed = send(binding, bearer, request(message("fail now", null, null))).response().getTask();
        assertEquals(TaskState.TASK_STATE_FAILED, failed.getStatus().getState());
        assertEquals("Failed as asked", failed.getStatus().getMessage().getParts(0).getText());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingNames")
    void cancelAnInterruptedTaskThenAgain(String binding) {
        String bearer = bearer(binding, "alice");
        Task asked = send(binding, bearer, request(message("input please", null, null))).response().getTask();
        Outcome canceled = cancel(binding, bearer, asked.getId());
        assertEquals(TaskState.TASK_STATE_CANCELED, canceled.task().getStatus().getState());
        assertEquals(new Said("FAILED_PRECONDITION", "Task " + asked.getId()
                + " cannot be canceled: it is in the terminal state TASK_STATE_CANCELED", "TASK_NOT_CANCELABLE", List.of()),
                cancel(binding, bearer, asked.getId()).error());
        // Another caller: the task does not exist for them, on cancel and on send alike.
        String bob = bearer(binding, "bob");
        Said notFound = new Said("NOT_FOUND", "Task not found: " + asked.getId(), "TASK_NOT_FOUND", List.of());
        assertEquals(notFound, cancel(binding, bob, asked.getId()).error());
        assertEquals(notFound, send(binding, bob, request(message("hi", asked.getId(), null))).error());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingNames")
    void returnImmediatelyAnswersBeforeTheAgentFinishes(String binding) {
        String bearer = bearer(binding, "alice");
        SendMessageRequest request = request(message("hello", null, null)).toBuilder()
                .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build();
        Task task = send(binding, bearer, request).response().getTask();
        assertFalse(task.getId().isEmpty());
        assertEquals(1, task.getHistoryCount() >= 1 ? 1 : 0, "the user's message is stored before the answer");
        // The agent carries on: the task completes without anyone waiting.
        long deadline = System.currentTimeMillis() + 10_000;
        TaskState state = task.getStatus().getState();
        while (state != TaskState.TASK_STATE_COMPLETED && System.currentTimeMillis() < deadline) {
            state = api(binding).get(bearer, null, task.getId(), "0").getStatus().getState();
        }
        assertEquals(TaskState.TASK_STATE_COMPLETED, state);
    }

    static Stream<Arguments> badRequests() {
        Message ok = message("x", null, null);
        return Stream.of(
                bad("no message", SendMessageRequest.newBuilder().build(), "message", "message is required"),
                bad("no parts", request(ok.toBuilder().clearParts().build()), "message.parts", "message.parts must not be empty"),
                bad("an empty part", request(ok.toBuilder().addParts(Part.newBuilder().setMediaType("text/plain")).build()),
                        "message.parts[1]", "message.parts[1] must hold one of text, raw, url or data"),
                bad("no messageId", request(ok.toBuilder().setMessageId("").build()), "message.messageId", "message.messageId is required"),
                bad("role agent", request(ok.toBuilder().setRole(Role.ROLE_AGENT).build()), "message.role", "message.role must be ROLE_USER"),
                bad("NUL in text", request(ok.toBuilder().setParts(0, Part.newBuilder().setText("a\u0000b")).build()),
                        "message.parts[0].text", "message.parts[0].text must not contain NUL characters"),
                bad("NUL in metadata", request(ok.toBuilder().setMetadata(com.google.protobuf.Struct.newBuilder()
                        .putFields("k", com.google.protobuf.Value.newBuilder().setStringValue("\u0000").build())).build()),
                        "message.metadata", "message.metadata must not contain NUL characters"),
                bad("oversized text", request(ok.toBuilder().setParts(0, Part.newBuilder().setText("x".repeat(100_001))).build()),
                        "message.parts", "message.parts hold 100001 characters of text; at most 100000 are accepted"),
                bad("negative historyLength", request(ok).toBuilder().setConfiguration(SendMessageConfiguration.newBuilder()
                        .setHistoryLength(-1)).build(), "configuration.historyLength", "configuration.historyLength must not be negative, got -1"));
    }

    private static Arguments bad(String name, SendMessageRequest request, String field, String message) {
        return Arguments.of(name, request, field, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badInputIsInvalidParamsNamingTheFieldOnEveryBinding(String name, SendMessageRequest request, String field, String message) {
        for (String binding : List.of("HTTP+JSON", "GRPC", "JSONRPC")) {
            Said said = send(binding, bearer(binding, "alice"), request).error();
            assertEquals(new Said("INVALID_ARGUMENT", message, null, List.of(field)), said, binding);
        }
    }

    @Test
    void cancelRefusesABadIdNamingItOnEveryBinding() {
        Map<String, String> cases = Map.of(
                "a%00b", "id must not contain NUL characters",
                "i".repeat(1025), "id must be at most 1024 characters");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            String id = c.getKey().replace("%00", "\u0000");
            for (String binding : List.of("HTTP+JSON", "GRPC", "JSONRPC")) {
                String bearer = bearer(binding, "alice");
                Outcome outcome = switch (binding) {
                    case "HTTP+JSON" -> rest(bearer, "/tasks/" + c.getKey() + ":cancel", "{}", Task.newBuilder());
                    case "JSONRPC" -> jsonRpc(bearer, "CancelTask", json(CancelTaskRequest.newBuilder().setId(id).build()), Task.newBuilder());
                    default -> grpc(bearer, stub -> stub.cancelTask(CancelTaskRequest.newBuilder().setId(id).build()));
                };
                assertEquals(new Said("INVALID_ARGUMENT", c.getValue(), null, List.of("id")), outcome.error(), binding + " " + c.getValue());
            }
        }
    }

    @Test
    void aContextMismatchAndUnacceptableOutputModes() {
        for (String binding : List.of("HTTP+JSON", "GRPC", "JSONRPC")) {
            String bearer = bearer(binding, "alice");
            Task asked = send(binding, bearer, request(message("input needed", null, null))).response().getTask();
            assertEquals(new Said("INVALID_ARGUMENT", "message.contextId does not match the context of task " + asked.getId(), null,
                    List.of("message.contextId")),
                    send(binding, bearer, request(message("x", asked.getId(), "other-context"))).error(), binding);
            SendMessageRequest images = request(message("x", null, null)).toBuilder()
                    .setConfiguration(SendMessageConfiguration.newBuilder().addAcceptedOutputModes("image/png")).build();
            assertEquals(new Said("INVALID_ARGUMENT", "None of configuration.acceptedOutputModes is produced by this agent; it produces text/plain",
                    "CONTENT_TYPE_NOT_SUPPORTED", List.of()), send(binding, bearer, images).error(), binding);
        }
    }

    // ---- three bindings, one shape ---------------------------------------------------------

    private static String bearer(String binding, String subject) {
        return Tokens.valid(BINDINGS_TENANT + "-" + binding, subject);
    }

    static Message message(String text, String taskId, String contextId) {
        Message.Builder message = Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER)
                .addParts(Part.newBuilder().setText(text));
        if (taskId != null) {
            message.setTaskId(taskId);
        }
        if (contextId != null) {
            message.setContextId(contextId);
        }
        return message.build();
    }

    static SendMessageRequest request(Message message) {
        return SendMessageRequest.newBuilder().setMessage(message).build();
    }

    private Outcome send(String binding, String bearer, SendMessageRequest request) {
        return switch (binding) {
            case "HTTP+JSON" -> rest(bearer, "/message:send", json(request), SendMessageResponse.newBuilder());
            case "JSONRPC" -> jsonRpc(bearer, "SendMessage", json(request), SendMessageResponse.newBuilder());
            default -> grpc(bearer, stub -> stub.sendMessage(request));
        };
    }

    private Outcome cancel(String binding, String bearer, String id) {
        return switch (binding) {
            case "HTTP+JSON" -> rest(bearer, "/tasks/" + id + ":cancel", "{}", Task.newBuilder());
            case "JSONRPC" -> jsonRpc(bearer, "CancelTask", "{\"id\":\"" + id + "\"}", Task.newBuilder());
            default -> grpc(bearer, stub -> stub.cancelTask(CancelTaskRequest.newBuilder().setId(id).build()));
        };
    }

    static String json(com.google.protobuf.Message message) {
        try {
            return JsonFormat.printer().print(message);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static Outcome parsed(String json, com.google.protobuf.Message.Builder builder) {
        try {
            JsonFormat.parser().merge(json, builder);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(json, e);
        }
        com.google.protobuf.Message message = builder.build();
        return message instanceof Task task ? new Outcome(null, task, null) : new Outcome((SendMessageResponse) message, null, null);
    }

    private static Outcome rest(String bearer, String path, String body, com.google.protobuf.Message.Builder builder) {
        Response response = given().urlEncodingEnabled(false).contentType("application/json").header("A2A-Version", "1.0")
                .header("Authorization", "Bearer " + bearer).body(body).post(path);
        String text = response.asString();
        if (response.statusCode() == 200) {
            return parsed(text, builder);
        }
        assertTrue(response.statusCode() == 400 || response.statusCode() == 404, response.statusCode() + " " + text);
        JsonPath json = JsonPath.from(text);
        List<String> fields = json.getList("error.details.find { it.'@type'.endsWith('BadRequest') }.fieldViolations.field");
        return new Outcome(null, null, new Said(json.getString("error.status"), json.getString("error.message"),
                json.getString("error.details.find { it.'@type'.endsWith('ErrorInfo') }.reason"), fields == null ? List.of() : fields));
    }

    private static Outcome jsonRpc(String bearer, String method, String params, com.google.protobuf.Message.Builder builder) {
        JsonRpc.Reply reply = JsonRpc.call(bearer, null, method, params);
        if (!reply.isError()) {
            com.google.protobuf.Message message = reply.result(builder);
            return message instanceof Task task ? new Outcome(null, task, null) : new Outcome((SendMessageResponse) message, null, null);
        }
        ApiError error = reply.error();
        return new Outcome(null, null, new Said(error.status(), error.message(), error.reason(), error.fields()));
    }

    private Outcome grpc(String bearer, java.util.function.Function<dev.a2atasks.proto.v1.A2AServiceGrpc.A2AServiceBlockingStub, Object> call) {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            Object result = call.apply(channels.stub(bearer));
            return result instanceof Task task ? new Outcome(null, task, null) : new Outcome((SendMessageResponse) result, null, null);
        } catch (StatusRuntimeException e) {
            ErrorInfo info = GrpcChannels.errorInfo(e);
            BadRequest bad = GrpcChannels.badRequest(e);
            return new Outcome(null, null, new Said(e.getStatus().getCode().name(), e.getStatus().getDescription(),
                    info == null ? null : info.getReason(),
                    bad == null ? List.of() : bad.getFieldViolationsList().stream().map(BadRequest.FieldViolation::getField).toList()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
            return null;
        }
    }
}
