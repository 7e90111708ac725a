package dev.a2atasks.execution;

import static dev.a2atasks.execution.WritePathParityTest.message;
import static dev.a2atasks.execution.WritePathParityTest.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;

/** SendStreamingMessage and SubscribeToTask: gRPC server streaming, and Server-Sent Events on both JSON bindings. */
@QuarkusTest
class StreamingTest extends BindingTest {

    private static final String BEARER = Tokens.valid("StreamingTest", "alice");

    @Test
    void aStreamedTaskArrivesAsTaskThenEveryUpdateInOrderAndCloses() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            List<StreamResponse> events = drain(channels.stub(BEARER).sendStreamingMessage(request(message("abcdef", null, null))));
            assertTrue(events.get(0).hasTask(), events.toString());
            Task task = events.get(0).getTask();
            List<String> kinds = events.stream().skip(1).map(e -> e.hasStatusUpdate() ? e.getStatusUpdate().getStatus().getState().name()
                    : "artifact:" + e.getArtifactUpdate().getArtifact().getParts(0).getText() + (e.getArtifactUpdate().getLastChunk() ? "!" : ""))
                    .toList();
            // A new task streams from its creation: SUBMITTED, then every update, however fast the agent made them.
            assertEquals(TaskState.TASK_STATE_SUBMITTED, task.getStatus().getState(), events.toString());
            assertEquals(List.of("TASK_STATE_WORKING", "artifact:ab", "artifact:cd", "artifact:ef!", "TASK_STATE_COMPLETED"), kinds,
                    events.toString());
            events.stream().skip(1).forEach(e -> assertEquals(task.getId(),
                    e.hasStatusUpdate() ? e.getStatusUpdate().getTaskId() : e.getArtifactUpdate().getTaskId()));
            // The first chunk starts the artifact (append: false); the ones after it append to it.
            List<Boolean> appends = events.stream().skip(1).filter(StreamResponse::hasArtifactUpdate)
                    .map(e -> e.getArtifactUpdate().getAppend()).toList();
            assertEquals(List.of(false, true, true), appends, events.toString());
        }
    }

    @Test
    void aStreamThatMeetsAnInterruptedTaskClosesAfterItsSnapshot() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(BEARER);
            // The agent asks for input again on every turn: each streamed continuation ends with its own
            // INPUT_REQUIRED, whether the stream's snapshot already holds it or an event brings it.
            Task asked = stub.sendMessage(request(message("input wanted", null, null))).getTask();
            for (int i = 0; i < 20; i++) {
                List<StreamResponse> events = drain(stub.sendStreamingMessage(request(message("more input " + i, asked.getId(), null))));
                StreamResponse last = events.get(events.size() - 1);
                TaskState end = last.hasTask() ? last.getTask().getStatus().getState() : last.getStatusUpdate().getStatus().getState();
                assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, end, events.toString());
            }
            // SubscribeToTask obeys the same rule: an interrupted task's stream is its snapshot.
            List<StreamResponse> subscribed = drain(stub.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(asked.getId()).build()));
            assertEquals(1, subscribed.size(), subscribed.toString());
            assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, subscribed.get(0).getTask().getStatus().getState());
        }
    }

    @Test
    void aDirectReplyOnAStreamIsOneMessageAsInBlockingSendMessage() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(BEARER);
            List<StreamResponse> events = drain(stub.sendStreamingMessage(request(message("reply please", null, null))));
            assertEquals(1, events.size(), events.toString());
            assertTrue(events.get(0).hasMessage(), events.toString());
            assertEquals("You said: reply please", events.get(0).getMessage().getParts(0).getText());
            assertEquals(stub.sendMessage(request(message("reply please", null, null))).getMessage().getParts(0).getText(),
                    events.get(0).getMessage().getParts(0).getText());
        }
    }

    @Test
    void aSubscriberSeesWhatAnotherClientCausesUntilTheTaskEnds() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(BEARER);
            Task asked = stub.sendMessage(request(message("input wanted", null, null))).getTask();
            assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, asked.getStatus().getState());

            // Another client answers; the agent works slowly (a step every 200 ms), and a subscriber joins meanwhile.
            Task working = stub.sendMessage(request(message("the slow answer", asked.getId(), null)).toBuilder()
                    .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build()).getTask();
            assertEquals(TaskState.TASK_STATE_WORKING, working.getStatus().getState());
            Iterator<StreamResponse> subscription = stub.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(asked.getId()).build());
            StreamResponse first = subscription.next();
            assertEquals(asked.getId(), first.getTask().getId());
            assertFalse(first.getTask().getStatus().getState() == TaskState.TASK_STATE_COMPLETED, first.toString());
            List<StreamResponse> rest = drain(subscription);
            List<String> states = rest.stream().filter(StreamResponse::hasStatusUpdate)
                    .map(e -> e.getStatusUpdate().getStatus().getState().name()).toList();
            assertEquals("TASK_STATE_COMPLETED", states.get(states.size() - 1), rest.toString());
            // What the snapshot held plus what followed it: the whole echo, once.
            String echoed = first.getTask().getArtifactsList().stream().flatMap(a -> a.getPartsList().stream()).map(p -> p.getText())
                    .reduce("", String::concat) + rest.stream().filter(StreamResponse::hasArtifactUpdate)
                    .map(e -> e.getArtifactUpdate().getArtifact().getParts(0).getText()).reduce("", String::concat);
            assertEquals("the slow answer", echoed);

            // Now terminal: a new subscription is refused; another caller's is not found.
            StatusRuntimeException terminal = assertThrows(StatusRuntimeException.class, () -> stub.subscribeToTask(
                    SubscribeToTaskRequest.newBuilder().setId(asked.getId()).build()).next());
            assertEquals(Status.Code.FAILED_PRECONDITION, terminal.getStatus().getCode());
            assertEquals("Task " + asked.getId() + " is in the terminal state TASK_STATE_COMPLETED and takes no further subscriptions",
                    terminal.getStatus().getDescription());
            StatusRuntimeException foreign = assertThrows(StatusRuntimeException.class, () -> channels.stub(Tokens.valid("StreamingTest", "bob"))
                    .subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(asked.getId()).build()).next());
            assertEquals(Status.Code.NOT_FOUND, foreign.getStatus().getCode());
        }
    }

    @Test
    void aLateSubscriberLosesNothingThatHappensAfterItsSnapshot() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(BEARER);
            Task working = stub.sendMessage(request(message("slow work", null, null)).toBuilder()
                    .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build()).getTask();
            // Two subscribers, one early and one a step later: each gets everything after its own snapshot, and both end alike.
            Iterator<StreamResponse> early = stub.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(working.getId()).build());
            early.next();
            Thread.sleep(250);
            List<StreamResponse> late = drain(stub.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(working.getId()).build()));
            List<StreamResponse> earlyEvents = drain(early);
            assertFalse(earlyEvents.isEmpty());
            assertEquals(TaskState.TASK_STATE_COMPLETED, earlyEvents.get(earlyEvents.size() - 1).getStatusUpdate().getStatus().getState());
            List<StreamResponse> lateEvents = late.subList(1, late.size());
            assertEquals(lateEvents, earlyEvents.subList(earlyEvents.size() - lateEvents.size(), earlyEvents.size()));
        }
    }

    @Test
    void httpJsonAndJsonRpcStreamTheSameEventsAsServerSentEvents() throws Exception {
        for (String binding : List.of("HTTP+JSON", "JSONRPC")) {
            String send = WritePathParityTest.json(request(message("abcdef", null, null)));
            HttpResponse<java.util.stream.Stream<String>> response = binding.equals("HTTP+JSON")
                    ? sse("/message:stream", send)
                    : sse("/", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"SendStreamingMessage\",\"params\":" + send + "}");
            assertEquals(200, response.statusCode(), binding);
            assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"), binding);
            List<StreamResponse> events = events(response, binding.equals("JSONRPC"));
            assertTrue(events.get(0).hasTask(), binding + " " + events);
            StreamResponse last = events.get(events.size() - 1);
            assertEquals(TaskState.TASK_STATE_COMPLETED, last.getStatusUpdate().getStatus().getState(), binding);
            String echoed = events.stream().filter(StreamResponse::hasArtifactUpdate)
                    .map(e -> e.getArtifactUpdate().getArtifact().getParts(0).getText()).reduce("", String::concat);
            assertTrue("abcdef".endsWith(echoed) && !echoed.isEmpty(), binding + " " + echoed);
        }
    }

    @Test
    void jsonRpcAnswersARefusalBeforeTheFirstEventAsAnOrdinaryErrorBody() throws Exception {
        HttpResponse<java.util.stream.Stream<String>> response = sse("/",
                "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"SubscribeToTask\",\"params\":{\"id\":\"no-such-task\"}}");
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("application/json"), response.headers().toString());
        String body = response.body().collect(java.util.stream.Collectors.joining("\n"));
        assertTrue(body.startsWith("{") && body.contains("\"code\":-32001") && body.contains("\"id\":8"), body);
        // A non-streaming method asked for with Accept: text/event-stream: its one answer as the only event.
        List<String> listed = sse("/", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ListTasks\",\"params\":{\"pageSize\":1}}")
                .body().filter(line -> line.startsWith("data: ")).toList();
        assertEquals(1, listed.size());
        assertTrue(listed.get(0).contains("\"result\""), listed.get(0));
        // And a streaming method without it: told how to ask.
        String plain = java.net.http.HttpClient.newHttpClient().send(post("/", "{\"jsonrpc\":\"2.0\",\"id\":10,"
                + "\"method\":\"SubscribeToTask\",\"params\":{\"id\":\"x\"}}").build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(plain.contains("-32600") && plain.contains("Accept: text/event-stream"), plain);
    }

    @Test
    void httpJsonSubscribeFollowsATaskAnotherClientAdvances() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(BEARER);
            Task asked = stub.sendMessage(request(message("slow work", null, null)).toBuilder()
                    .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build()).getTask();
            java.util.concurrent.CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> subscription =
                    java.net.http.HttpClient.newHttpClient().sendAsync(get("/tasks/" + asked.getId() + ":subscribe").build(),
                            HttpResponse.BodyHandlers.ofLines());
            HttpResponse<java.util.stream.Stream<String>> response = subscription.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(200, response.statusCode());
            java.util.Iterator<String> lines = response.body().iterator();
            StreamResponse first = parse(nextData(lines), false);
            assertFalse(first.getTask().getStatus().getState() == TaskState.TASK_STATE_COMPLETED, first.toString());
            List<StreamResponse> rest = new ArrayList<>();
            while (lines.hasNext()) {
                String line = lines.next();
                if (line.startsWith("data: ")) {
                    rest.add(parse(line.substring(6), false));
                }
            }
            assertEquals(TaskState.TASK_STATE_COMPLETED, rest.get(rest.size() - 1).getStatusUpdate().getStatus().getState(), rest.toString());
        }
    }

    /** A refusal as each binding words it: status, message; the JSON-RPC code mapped to its status. */
    record Refusal(String status, String message) {
    }

    @Test
    void subscribeRefusalsReadTheSameOnEveryBinding() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(BEARER);
            String done = stub.sendMessage(request(message("finish", null, null))).getTask().getId();
            Map<String, Refusal> cases = Map.of(
                    "no-such-task", new Refusal("NOT_FOUND", "Task not found: no-such-task"),
                    done, new Refusal("FAILED_PRECONDITION", "Task " + done
                            + " is in the terminal state TASK_STATE_COMPLETED and takes no further subscriptions"),
                    "a%00b", new Refusal("INVALID_ARGUMENT", "id must not contain NUL characters"));
            for (Map.Entry<String, Refusal> c : cases.entrySet()) {
                String id = c.getKey().replace("%00", "\u0000");
                // gRPC
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                        () -> stub.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(id).build()).next());
                assertEquals(c.getValue(), new Refusal(e.getStatus().getCode().name(), e.getStatus().getDescription()), "gRPC " + c.getKey());
                // HTTP+JSON: an ordinary error response, before any event
                HttpResponse<String> rest = java.net.http.HttpClient.newHttpClient().send(get("/tasks/" + c.getKey() + ":subscribe").build(),
                        HttpResponse.BodyHandlers.ofString());
                var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(rest.body());
                assertEquals(c.getValue(), new Refusal(json.at("/error/status").asText(), json.at("/error/message").asText()),
                        "HTTP+JSON " + c.getKey());
                // JSON-RPC: an ordinary error response too, as for any JSON-RPC call
                String params = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Map.of("id", id));
                HttpResponse<java.util.stream.Stream<String>> refused = sse("/", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SubscribeToTask\","
                        + "\"params\":" + params + "}");
                assertTrue(refused.headers().firstValue("content-type").orElse("").startsWith("application/json"), "JSON-RPC " + c.getKey());
                var error = new com.fasterxml.jackson.databind.ObjectMapper().readTree(refused.body()
                        .collect(java.util.stream.Collectors.joining("\n"))).get("error");
                String status = switch (error.get("code").asInt()) {
                    case -32001 -> "NOT_FOUND";
                    case -32004 -> "FAILED_PRECONDITION";
                    case -32602 -> "INVALID_ARGUMENT";
                    default -> "code " + error.get("code").asInt();
                };
                assertEquals(c.getValue(), new Refusal(status, error.get("message").asText()), "JSON-RPC " + c.getKey());
            }
        }
    }

    private String nextData(java.util.Iterator<String> lines) {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data: ")) {
                return line.substring(6);
            }
        }
        throw new AssertionError("stream ended");
    }

    private HttpRequest.Builder post(String path, String body) {
        return HttpRequest.newBuilder(java.net.URI.create(root.toString()).resolve(path)).header("Authorization", "Bearer " + BEARER).header("A2A-Version", "1.0")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(java.net.URI.create(root.toString()).resolve(path)).header("Authorization", "Bearer " + BEARER).header("A2A-Version", "1.0")
                .header("Accept", "text/event-stream").GET();
    }

    private HttpResponse<java.util.stream.Stream<String>> sse(String path, String body) throws Exception {
        return java.net.http.HttpClient.newHttpClient().send(post(path, body).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofLines());
    }

    private static List<StreamResponse> events(HttpResponse<java.util.stream.Stream<String>> response, boolean jsonRpc) {
        return response.body().filter(line -> line.startsWith("data: ")).map(line -> parse(line.substring(6), jsonRpc)).toList();
    }

    private static StreamResponse parse(String data, boolean jsonRpc) {
        try {
            String json = jsonRpc ? new com.fasterxml.jackson.databind.ObjectMapper().readTree(data).get("result").toString() : data;
            StreamResponse.Builder event = StreamResponse.newBuilder();
            com.google.protobuf.util.JsonFormat.parser().merge(json, event);
            return event.build();
        } catch (Exception e) {
            throw new AssertionError(data, e);
        }
    }

    private static List<StreamResponse> drain(Iterator<StreamResponse> stream) {
        List<StreamResponse> events = new ArrayList<>();
        stream.forEachRemaining(events::add);
        return events;
    }
}
