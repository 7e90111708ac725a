package dev.a2atasks.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.HistoryApi;
import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.PushApi;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.support.WebhookReceiver;
import io.grpc.StatusRuntimeException;
import io.restassured.RestAssured;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The native executable, black-box: started on a fresh PostgreSQL (so its migrations run in the
 * image too), it serves every operation on every binding as the JVM build does. Sends (blocking
 * and streamed) on all three bindings, SubscribeToTask and CancelTask, ListTasks and GetTask,
 * push-config CRUD and one delivery to a loopback webhook, ListTaskMessages, an error with its
 * details on each binding, and the operations endpoints. What only the image can get wrong
 * (reflection, resources, build-time initialisation, proto descriptors, JSON writers, TLS-free
 * gRPC) shows here.
 *
 * <p>Run by CI's native step, not by {@code verify} on the JVM (every check here has a faster
 * {@code @QuarkusTest} twin there): {@code ./mvnw verify -Dnative -Dit.test=NativeExecutableIT
 * -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}, which builds the image first. The
 * executable is {@code native.image.path} (Quarkus' own property, set in the pom).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NativeExecutableIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> BINDINGS = List.of("HTTP+JSON", "JSONRPC", "GRPC");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String bearer = Tokens.validOutsideQuarkus("NativeExecutableIT", "alice");
    private EmbeddedPostgres database;
    private WebhookReceiver webhook;
    private PackagedServer server;
    private GrpcChannels grpc;
    private URL root;

    @BeforeAll
    void start() throws Exception {
        Path executable = Path.of(System.getProperty("native.image.path", "target/a2a-tasks-0.1.0-SNAPSHOT-runner"));
        assertTrue(Files.isExecutable(executable), "no native executable at " + executable + ": build it with -Dnative");
        database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").setServerConfig("synchronous_commit", "off").start();
        webhook = new WebhookReceiver();
        long started = System.nanoTime();
        server = PackagedServer.startNative(executable, "native", database, Map.of(
                "a2a.push.allow-list", "127.0.0.1/32",
                "a2a.push.poll-interval", "200ms",
                "a2a.demo-agent.slow-step-delay", "5s")); // a "slow" task stays WORKING while it is subscribed to and canceled
        System.out.printf("native executable listening %d ms after exec, migrations included%n",
                Duration.ofNanos(System.nanoTime() - started).toMillis());
        root = URI.create(server.url("/")).toURL();
        grpc = new GrpcChannels(root);
        RestAssured.baseURI = "http://127.0.0.1";
        RestAssured.port = server.port();
    }

    @AfterAll
    void stop() throws Exception {
        RestAssured.reset();
        if (grpc != null) {
            grpc.close();
        }
        if (server != null) {
            server.close();
        }
        if (webhook != null) {
            webhook.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void sendMessageBlockingOnEveryBinding() throws Exception {
        JsonNode rest = post("/message:send", sendBody("hello over HTTP+JSON", ""));
        assertEquals("TASK_STATE_COMPLETED", rest.at("/task/status/state").asText(), rest.toString());
        StringBuilder echoed = new StringBuilder(); // the demo agent streams its echo in three chunks
        rest.at("/task/artifacts/0/parts").forEach(part -> echoed.append(part.get("text").asText()));
        assertEquals("hello over HTTP+JSON", echoed.toString(), rest.toString());

        JsonNode rpc = jsonRpc("SendMessage", sendBody("hello over JSON-RPC", ""));
        assertEquals("TASK_STATE_COMPLETED", rpc.at("/result/task/status/state").asText(), rpc.toString());

        var answer = grpc.stub(bearer).sendMessage(sendRequest("hello over gRPC"));
        assertEquals(TaskState.TASK_STATE_COMPLETED, answer.getTask().getStatus().getState(), answer.toString());
        assertEquals("hello over gRPC", answer.getTask().getArtifacts(0).getPartsList().stream().map(Part::getText)
                .collect(java.util.stream.Collectors.joining()));
    }

    @Test
    void sendStreamingMessageOnEveryBinding() throws Exception {
        List<JsonNode> rest = stream("/message:stream", sendBody("streamed over HTTP+JSON", ""));
        assertEquals("TASK_STATE_COMPLETED", rest.get(rest.size() - 1).at("/statusUpdate/status/state").asText(), rest.toString());

        List<JsonNode> rpc = stream("/", rpcBody("SendStreamingMessage", sendBody("streamed over JSON-RPC", "")));
        assertEquals("TASK_STATE_COMPLETED", rpc.get(rpc.size() - 1).at("/result/statusUpdate/status/state").asText(), rpc.toString());

        List<StreamResponse> events = new ArrayList<>();
        grpc.stub(bearer).sendStreamingMessage(sendRequest("streamed over gRPC")).forEachRemaining(events::add);
        assertTrue(events.size() >= 3, events.toString());
        assertEquals(TaskState.TASK_STATE_COMPLETED, events.get(events.size() - 1).getStatusUpdate().getStatus().getState());
    }

    @Test
    void subscribersOnTwoBindingsSeeACancelMadeOnAThird() throws Exception {
        String id = post("/message:send", sendBody("slow, to be canceled", ",\"configuration\":{\"returnImmediately\":true}"))
                .at("/task/id").asText();
        Iterator<StreamResponse> grpcEvents = grpc.stub(bearer).withDeadlineAfter(30, java.util.concurrent.TimeUnit.SECONDS)
                .subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(id).build());
        assertEquals(id, grpcEvents.next().getTask().getId(), "a subscription starts with the task");
        // The HTTP+JSON subscription is live once its first event (the task) has arrived; a cancel
        // before that would race it, and a subscription to a canceled task is refused.
        HttpResponse<java.util.stream.Stream<String>> sse = http.send(streamRequest("/tasks/" + id + ":subscribe", null),
                HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, sse.statusCode());
        Iterator<String> sseLines = sse.body().iterator();
        List<String> sseSeen = new ArrayList<>();
        while (sseLines.hasNext() && sseSeen.stream().noneMatch(line -> line.startsWith("data: "))) {
            sseSeen.add(sseLines.next());
        }

        JsonNode canceled = jsonRpc("CancelTask", "{\"id\":\"" + id + "\"}");
        assertEquals("TASK_STATE_CANCELED", canceled.at("/result/status/state").asText(), canceled.toString());

        StreamResponse last = null;
        while (grpcEvents.hasNext()) {
            last = grpcEvents.next();
        }
        assertEquals(TaskState.TASK_STATE_CANCELED, last.getStatusUpdate().getStatus().getState(), String.valueOf(last));
        sseLines.forEachRemaining(sseSeen::add);
        List<JsonNode> events = events(sseSeen);
        assertEquals("TASK_STATE_CANCELED", events.get(events.size() - 1).at("/statusUpdate/status/state").asText(), events.toString());
    }

    @Test
    void listAndGetOnEveryBinding() throws Exception {
        String id = post("/message:send", sendBody("to be listed", "")).at("/task/id").asText();
        JsonNode list = get("/tasks?pageSize=100");
        assertTrue(list.at("/tasks").size() >= 1 && list.toString().contains(id), list.toString());
        assertEquals(id, get("/tasks/" + id).at("/id").asText());
        assertTrue(jsonRpc("ListTasks", "{\"pageSize\":100}").toString().contains(id));
        assertEquals(id, jsonRpc("GetTask", "{\"id\":\"" + id + "\"}").at("/result/id").asText());
        var page = grpc.stub(bearer).listTasks(ListTasksRequest.newBuilder().setPageSize(100).build());
        assertTrue(page.getTasksList().stream().anyMatch(t -> t.getId().equals(id)), page.toString());
        assertEquals(id, grpc.stub(bearer).getTask(GetTaskRequest.newBuilder().setId(id).build()).getId());
    }

    @Test
    void pushConfigsOnEveryBindingAndOneDelivery() throws Exception {
        String id = post("/message:send", sendBody("slow, with push configs", ",\"configuration\":{\"returnImmediately\":true}"))
                .at("/task/id").asText();
        PushApi push = new PushApi(root);
        for (String binding : BINDINGS) {
            TaskPushNotificationConfig created = push.create(binding, bearer, TaskPushNotificationConfig.newBuilder().setTaskId(id)
                    .setId("config-" + binding).setUrl(webhook.url("/crud")).build()).ok();
            assertEquals("config-" + binding, created.getId(), binding);
            assertEquals(webhook.url("/crud"), push.get(binding, bearer, id, created.getId()).ok().getUrl(), binding);
            assertTrue(push.list(binding, bearer, id, null, null).ok().getConfigsList().stream()
                    .anyMatch(c -> c.getId().equals(created.getId())), binding);
            push.delete(binding, bearer, id, created.getId()).ok();
            assertEquals("NOT_FOUND", push.get(binding, bearer, id, created.getId()).failed().status(), binding);
        }
        jsonRpc("CancelTask", "{\"id\":\"" + id + "\"}");

        String delivered = post("/message:send", sendBody("delivered", ",\"configuration\":{\"returnImmediately\":true,"
                + "\"taskPushNotificationConfig\":{\"url\":\"" + webhook.url("/delivery") + "\",\"token\":\"t-1\"}}")).at("/task/id").asText();
        List<WebhookReceiver.Received> got = webhook.await(1, 30);
        WebhookReceiver.Received first = got.stream().filter(r -> r.path().equals("/delivery")).findFirst().orElseThrow();
        assertTrue(first.header("X-A2A-Delivery-Id").startsWith(delivered + "/"), first.toString());
        assertEquals("t-1", first.header("X-A2A-Notification-Token"));
        assertTrue(first.body().contains(delivered), first.body());
    }

    @Test
    void listTaskMessagesOnEveryBinding() throws Exception {
        String id = post("/message:send", sendBody("a transcript", "")).at("/task/id").asText();
        HistoryApi history = new HistoryApi(root);
        for (String binding : BINDINGS) {
            var page = history.list(binding, bearer, ListTaskMessagesRequest.newBuilder().setTaskId(id).build()).ok();
            assertEquals(3, page.getMessagesCount(), binding + ": the user's message and the agent's two: " + page);
            assertTrue(page.getMessagesList().stream().anyMatch(m -> m.getSeq() == 0
                    && m.getMessage().getParts(0).getText().equals("a transcript")), binding + ": " + page);
        }
    }

    @Test
    void errorsCarryTheirDetailsOnEveryBinding() throws Exception {
        HttpResponse<String> rest = send(HttpRequest.newBuilder(URI.create(server.url("/tasks/nope"))).GET());
        assertEquals(404, rest.statusCode(), rest.body());
        assertEquals("TASK_NOT_FOUND", JSON.readTree(rest.body()).at("/error/details/0/reason").asText(), rest.body());
        HttpResponse<String> invalid = send(HttpRequest.newBuilder(URI.create(server.url("/tasks?pageSize=0"))).GET());
        assertEquals(400, invalid.statusCode(), invalid.body());
        assertTrue(invalid.body().contains("\"field\":\"pageSize\""), invalid.body());

        JsonNode rpc = jsonRpc("GetTask", "{\"id\":\"nope\"}");
        assertEquals(-32001, rpc.at("/error/code").asInt(), rpc.toString());
        assertTrue(rpc.at("/error/data").toString().contains("TASK_NOT_FOUND"), rpc.toString());

        try {
            grpc.stub(bearer).getTask(GetTaskRequest.newBuilder().setId("nope").build());
            throw new AssertionError("gRPC GetTask of an unknown task answered");
        } catch (StatusRuntimeException e) {
            assertEquals(io.grpc.Status.Code.NOT_FOUND, e.getStatus().getCode());
            assertEquals("TASK_NOT_FOUND", GrpcChannels.errorInfo(e).getReason());
        }
        try {
            grpc.stub(bearer).listTasks(ListTasksRequest.newBuilder().setPageSize(-1).build());
            throw new AssertionError("gRPC ListTasks with pageSize -1 answered");
        } catch (StatusRuntimeException e) {
            assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
            assertEquals("pageSize", GrpcChannels.badRequest(e).getFieldViolations(0).getField());
        }
    }

    @Test
    void operationsEndpointsAnswer() throws Exception {
        post("/message:send", sendBody("counted", ""));
        HttpResponse<String> metrics = send(HttpRequest.newBuilder(URI.create(server.url("/q/metrics"))).GET());
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("a2a_"), "the service's own meters are there");
        HttpResponse<String> health = send(HttpRequest.newBuilder(URI.create(server.url("/q/health"))).GET());
        assertEquals(200, health.statusCode(), health.body());
        assertEquals("UP", JSON.readTree(health.body()).at("/status").asText(), health.body());
        HttpResponse<String> openapi = send(HttpRequest.newBuilder(URI.create(server.url("/q/openapi?format=json"))).GET());
        assertEquals(200, openapi.statusCode());
        assertTrue(JSON.readTree(openapi.body()).at("/paths").size() > 5, "the OpenAPI document lists the routes");
    }

    // --- helpers ----------------------------------------------------------------------------

    private static String sendBody(String text, String more) {
        return "{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"" + text + "\"}]}"
                + more + "}";
    }

    private static SendMessageRequest sendRequest(String text) {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString())
                .setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText(text))).build();
    }

    private static String rpcBody(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0")
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(server.url(path))).GET());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private JsonNode post(String path, String body) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(server.url(path)))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private JsonNode jsonRpc(String method, String params) throws Exception {
        return post("/", rpcBody(method, params));
    }

    private HttpRequest streamRequest(String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url(path))).header("Authorization", "Bearer " + bearer)
                .header("A2A-Version", "1.0").header("Accept", "text/event-stream").timeout(Duration.ofSeconds(30));
        return (body == null ? request.GET() : request.header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))).build();
    }

    /** A stream read to its end (it ends with the task's terminal event): its events, parsed. */
    private List<JsonNode> stream(String path, String body) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> response = http.send(streamRequest(path, body), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream", response.headers().firstValue("Content-Type").orElse(""));
        return events(response.body().toList());
    }

    private static List<JsonNode> events(List<String> lines) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("data: ")) {
                events.add(JSON.readTree(line.substring(6)));
            }
        }
        assertFalse(events.isEmpty(), "the stream carried events");
        return events;
    }
}
