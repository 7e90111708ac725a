package dev.a2atasks.execution;

import static dev.a2atasks.execution.WritePathParityTest.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskArtifactUpdateEvent;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Every stream closes, with the shape docs/api.md documents, on every binding: 1,000 streamed
 * sends per binding across the demo agent's behaviours (echo, input, reply, fail, and a slow echo
 * canceled while it streams), 8 at a time, each with a deadline a hang would miss. An echo's events,
 * applied to its snapshot by the proto's rules (the first chunk of an artifact with
 * {@code append: false}, later ones appended), rebuild exactly the artifacts GetTask returns.
 */
@QuarkusTest
class StreamCloseTest extends BindingTest {

    private static final int SENDS = 1000;
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void everyStreamClosesWithItsDocumentedShape(String binding) throws Exception {
        String tenant = freshTenant("close", api(binding));
        String bearer = Tokens.valid(tenant, "alice");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (GrpcChannels channels = new GrpcChannels(root)) {
            A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(bearer);
            List<Future<String>> sends = new ArrayList<>();
            for (int i = 0; i < SENDS; i++) {
                String behaviour = List.of("echo", "input", "reply", "fail", "cancel").get(i % 5);
                String text = switch (behaviour) {
                    case "echo" -> "echo number " + i;
                    case "input" -> "input wanted " + i;
                    case "reply" -> "reply to " + i;
                    case "fail" -> "fail " + i;
                    default -> "slow work to cancel " + i;
                };
                sends.add(pool.submit(() -> {
                    SendMessageRequest request = SendMessageRequest.newBuilder().setMessage(message(text, null, null)).build();
                    // A cancel goes out once the stream has shown the task (from this client's own thread).
                    Consumer<String> onTask = !behaviour.equals("cancel") ? id -> {
                    } : id -> stub.cancelTask(CancelTaskRequest.newBuilder().setId(id).build());
                    List<StreamResponse> events = stream(binding, http, channels, bearer, request, onTask);
                    check(behaviour, events, stub);
                    return behaviour;
                }));
            }
            Map<String, Integer> done = new LinkedHashMap<>();
            for (Future<String> send : sends) {
                done.merge(send.get(DEADLINE.toSeconds() * 2, TimeUnit.SECONDS), 1, Integer::sum);
            }
            assertEquals(Map.of("echo", 200, "input", 200, "reply", 200, "fail", 200, "cancel", 200), done);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The documented shapes: a direct reply is one Message; everything else a Task, then updates, ending where the task ends. */
    private static void check(String behaviour, List<StreamResponse> events, A2AServiceGrpc.A2AServiceBlockingStub stub) {
        if (behaviour.equals("reply")) {
            assertEquals(1, events.size(), events.toString());
            assertTrue(events.get(0).hasMessage(), events.toString());
            return;
        }
        assertTrue(events.get(0).hasTask(), events.toString());
        TaskState expected = switch (behaviour) {
            case "echo" -> TaskState.TASK_STATE_COMPLETED;
            case "input" -> TaskState.TASK_STATE_INPUT_REQUIRED;
            case "fail" -> TaskState.TASK_STATE_FAILED;
            default -> TaskState.TASK_STATE_CANCELED;
        };
        StreamResponse last = events.get(events.size() - 1);
        TaskState end = last.hasTask() ? last.getTask().getStatus().getState() : last.getStatusUpdate().getStatus().getState();
        assertEquals(expected, end, events.toString());
        for (StreamResponse event : events.subList(1, Math.max(1, events.size() - 1))) {
            assertFalse(event.hasStatusUpdate() && isFinal(event.getStatusUpdate().getStatus().getState()), "closed late: " + events);
        }
        if (behaviour.equals("echo")) {
            Task task = events.get(0).getTask();
            Task stored = stub.getTask(GetTaskRequest.newBuilder().setId(task.getId()).build());
            assertEquals(stored.getArtifactsList(), apply(task.getArtifactsList(), events.subList(1, events.size())), events.toString());
        }
    }

    private static boolean isFinal(TaskState state) {
        return state == TaskState.TASK_STATE_COMPLETED || state == TaskState.TASK_STATE_FAILED || state == TaskState.TASK_STATE_CANCELED
                || state == TaskState.TASK_STATE_REJECTED || state == TaskState.TASK_STATE_INPUT_REQUIRED
                || state == TaskState.TASK_STATE_AUTH_REQUIRED;
    }

    /** Artifact updates applied as the proto says: append adds parts to an artifact the client has, otherwise it is (re)placed. */
    static List<Artifact> apply(List<Artifact> snapshot, List<StreamResponse> events) {
        Map<String, Artifact> artifacts = new LinkedHashMap<>();
        snapshot.forEach(a -> artifacts.put(a.getArtifactId(), a));
        for (StreamResponse event : events) {
            if (!event.hasArtifactUpdate()) {
                continue;
            }
            TaskArtifactUpdateEvent update = event.getArtifactUpdate();
            Artifact artifact = update.getArtifact();
            if (update.getAppend()) {
                Artifact held = artifacts.get(artifact.getArtifactId());
                if (held == null) {
                    throw new AssertionError("append=true for an artifact the client does not have: " + events);
                }
                artifacts.put(artifact.getArtifactId(), held.toBuilder().addAllParts(artifact.getPartsList()).build());
            } else {
                artifacts.put(artifact.getArtifactId(), artifact);
            }
        }
        return List.copyOf(artifacts.values());
    }

    /** One streamed send on a binding, read to its end within the deadline. */
    private List<StreamResponse> stream(String binding, HttpClient http, GrpcChannels channels, String bearer, SendMessageRequest request,
            Consumer<String> onTask) throws Exception {
        List<StreamResponse> events = new ArrayList<>();
        if (binding.equals("GRPC")) {
            try (Context.CancellableContext call = Context.current().withCancellation()) {
                Iterator<StreamResponse> stream = call.call(() -> channels.stub(bearer)
                        .withDeadlineAfter(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).sendStreamingMessage(request));
                while (stream.hasNext()) {
                    add(events, stream.next(), onTask);
                }
            } catch (StatusRuntimeException e) {
                throw new AssertionError("stream failed or hung: " + e.getStatus() + " after " + events, e);
            }
            return events;
        }
        boolean jsonRpc = binding.equals("JSONRPC");
        String body = WritePathParityTest.json(request);
        HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(root.toString()).resolve(jsonRpc ? "/" : "/message:stream"))
                .timeout(DEADLINE).header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0")
                .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(jsonRpc
                        ? "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\",\"params\":" + body + "}" : body));
        HttpResponse<java.util.stream.Stream<String>> response = http.send(post.build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        for (Iterator<String> lines = response.body().iterator(); lines.hasNext();) {
            assertTrue(System.nanoTime() < deadline, "stream hung: " + events);
            String line = lines.next();
            if (line.startsWith("data: ")) {
                String json = jsonRpc ? JSON.readTree(line.substring(6)).get("result").toString() : line.substring(6);
                StreamResponse.Builder event = StreamResponse.newBuilder();
                JsonFormat.parser().merge(json, event);
                add(events, event.build(), onTask);
            }
        }
        return events;
    }

    private static void add(List<StreamResponse> events, StreamResponse event, Consumer<String> onTask) {
        events.add(event);
        if (events.size() == 1 && event.hasTask()) {
            onTask.accept(event.getTask().getId());
        }
    }
}
