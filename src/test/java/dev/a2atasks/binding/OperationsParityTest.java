package dev.a2atasks.binding;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.google.rpc.ErrorInfo;

import dev.a2atasks.proto.v1.DeleteTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetExtendedAgentCardRequest;
import dev.a2atasks.proto.v1.GetTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.PushOff;
import dev.a2atasks.support.Tokens;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Every A2A operation a deployment does not offer answers from the port, in one place, with the
 * same error on all three bindings: UnsupportedOperation (GetExtendedAgentCard), or, with push
 * notifications switched off ({@code a2a.push.enabled=false}, this profile),
 * PushNotificationNotSupported for the push-notification config operations and a SendMessage
 * that carries a webhook, while the card says pushNotifications: false. Every
 * HTTP+JSON route of spec §11.3 is served, including SubscribeToTask by POST, the streaming routes
 * under {@code Accept: text/event-stream}, and a custom method whose colon is percent-encoded.
 */
@QuarkusTest
@TestProfile(PushOff.class)
class OperationsParityTest extends BindingTest {

    @Test
    void withPushOffTheCardSaysSoAndAMessageCarryingAWebhookIsRefused() {
        given().get("/.well-known/agent-card.json").then().statusCode(200)
                .body("capabilities.pushNotifications", org.hamcrest.Matchers.equalTo(false));
        Said said = rest(request().body("{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]},"
                + "\"configuration\":{\"taskPushNotificationConfig\":{\"url\":\"https://203.0.113.7/hook\"}}}"), "POST", "/message:send");
        assertEquals(new Said("FAILED_PRECONDITION", "Push notifications are not supported by this agent (SendMessage)",
                "PUSH_NOTIFICATION_NOT_SUPPORTED"), said);
    }

    private static final String BEARER = Tokens.valid("OperationsParityTest", "alice");

    /** What each binding said, normalized: status name, message, ErrorInfo reason. */
    record Said(String status, String message, String reason) {
    }

    static Stream<Arguments> operations() {
        return Stream.of(
                op("GetExtendedAgentCard", "GET", "/extendedAgentCard", false),
                op("CreateTaskPushNotificationConfig", "POST", "/tasks/t1/pushNotificationConfigs", true),
                op("GetTaskPushNotificationConfig", "GET", "/tasks/t1/pushNotificationConfigs/c1", true),
                op("ListTaskPushNotificationConfigs", "GET", "/tasks/t1/pushNotificationConfigs", true),
                op("DeleteTaskPushNotificationConfig", "DELETE", "/tasks/t1/pushNotificationConfigs/c1", true));
    }

    private static Arguments op(String method, String httpMethod, String path, boolean push) {
        return Arguments.of(method, httpMethod, path, push);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operations")
    void sameRefusalOnEveryBinding(String method, String httpMethod, String path, boolean push) {
        Said rest = rest(request().body("{}"), httpMethod, path);
        Said jsonRpc = jsonRpc(method);
        Said grpc = grpc(method);
        Said expected = push
                ? new Said("FAILED_PRECONDITION", "Push notifications are not supported by this agent (" + method + ")",
                        "PUSH_NOTIFICATION_NOT_SUPPORTED")
                : new Said("FAILED_PRECONDITION", method + " is not supported by this server", "UNSUPPORTED_OPERATION");
        assertEquals(expected, rest, "HTTP+JSON");
        assertEquals(expected, jsonRpc, "JSON-RPC");
        assertEquals(expected, grpc, "gRPC");
    }

    @Test
    void tenantPrefixedRoutesReachThePortToo() {
        assertEquals("UNSUPPORTED_OPERATION", rest(request(), "GET", "/some-tenant/extendedAgentCard").reason());
        assertEquals("PUSH_NOTIFICATION_NOT_SUPPORTED", rest(request(), "GET", "/some-tenant/tasks/t1/pushNotificationConfigs").reason());
        assertEquals("TASK_NOT_FOUND", rest(request(), "GET", "/some-tenant/tasks/t1:subscribe").reason());
        assertEquals("TASK_NOT_FOUND", rest(request(), "POST", "/some-tenant/tasks/t1:subscribe").reason());
        assertEquals("INVALID_ARGUMENT", rest(request().body("{}"), "POST", "/some-tenant/message:stream").status());
    }

    @Test
    void subscribeByPostAndStreamingRoutesUnderEventStreamAnswerTheA2AError() {
        // Refused before the stream begins: an ordinary A2A error response, not 405/406 or a broken stream.
        Said expected = new Said("NOT_FOUND", "Task not found: t1", "TASK_NOT_FOUND");
        assertEquals(expected, rest(request().accept("text/event-stream"), "POST", "/tasks/t1:subscribe"));
        assertEquals(expected, rest(request().accept("text/event-stream"), "GET", "/tasks/t1:subscribe"));
        assertEquals(new Said("INVALID_ARGUMENT", "message is required", null),
                rest(request().accept("text/event-stream").body("{}"), "POST", "/message:stream"));
    }

    @Test
    void aCustomMethodWithAnEncodedColonIsRouted() {
        // Routed to CancelTask, which looks the task up: an unknown id is TaskNotFound, not a 404/405 of the router.
        Said expected = new Said("NOT_FOUND", "Task not found: x", "TASK_NOT_FOUND");
        assertEquals(expected, rest(request().urlEncodingEnabled(false), "POST", "/tasks/x%3Acancel"));
        assertEquals(expected, rest(request().urlEncodingEnabled(false), "POST", "/tasks/x%3acancel"));
    }

    @Test
    void aBodyThatIsNotTheRequestMessageIsInvalidParams() {
        Said said = rest(request().body("{\"message\": 7}"), "POST", "/message:send");
        assertEquals(new Said("INVALID_ARGUMENT", "body is not a valid SendMessageRequest", null), said);
    }

    private static RequestSpecification request() {
        return given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + BEARER);
    }

    private static Said rest(RequestSpecification request, String method, String path) {
        Response response = request.request(method, path);
        String body = response.asString();
        assertTrue(response.statusCode() == 400 || (response.statusCode() == 404 && body.contains("TASK_NOT_FOUND")),
                method + " " + path + " -> " + response.statusCode() + " " + body);
        JsonPath json = JsonPath.from(body);
        return new Said(json.getString("error.status"), json.getString("error.message"),
                json.getString("error.details.find { it.'@type'.endsWith('ErrorInfo') }.reason"));
    }

    private static Said jsonRpc(String method) {
        Response response = request().body("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"" + method + "\",\"params\":{}}").post("/");
        JsonPath json = JsonPath.from(response.asString());
        int code = json.getInt("error.code");
        assertTrue(code == -32003 || code == -32004, response.asString());
        assertEquals(method.contains("PushNotification") ? -32003 : -32004, code);
        return new Said("FAILED_PRECONDITION", json.getString("error.message"),
                json.getString("error.data.find { it.'@type'.endsWith('ErrorInfo') }.reason"));
    }

    private Said grpc(String method) {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            var stub = channels.stub(BEARER);
            Map<String, Supplier<Object>> calls = Map.of(
                    "GetExtendedAgentCard", () -> stub.getExtendedAgentCard(GetExtendedAgentCardRequest.getDefaultInstance()),
                    "CreateTaskPushNotificationConfig", () -> stub.createTaskPushNotificationConfig(TaskPushNotificationConfig.getDefaultInstance()),
                    "GetTaskPushNotificationConfig", () -> stub.getTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest.getDefaultInstance()),
                    "ListTaskPushNotificationConfigs", () -> stub.listTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest.getDefaultInstance()),
                    "DeleteTaskPushNotificationConfig", () -> stub.deleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest.getDefaultInstance()));
            try {
                calls.get(method).get();
                throw new AssertionError(method + " answered over gRPC");
            } catch (StatusRuntimeException e) {
                ErrorInfo info = GrpcChannels.errorInfo(e);
                return new Said(e.getStatus().getCode().name(), e.getStatus().getDescription(), info == null ? null : info.getReason());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
