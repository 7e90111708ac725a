package dev.a2atasks.binding.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.binding.json.TaskJson;
import dev.a2atasks.task.read.MessageView;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.task.read.ArtifactView;
import dev.a2atasks.task.store.ProtoJsonColumns;
import dev.a2atasks.task.TaskPage;
import dev.a2atasks.task.read.TaskView;

/**
 * One wire model: the JSON bindings copy stored ProtoJSON through {@link TaskJson} without
 * parsing it, the gRPC binding maps the same stored task with {@link ProtoTasks}. For a few
 * hundred generated tasks (every state, with and without context, history, artifacts, metadata,
 * odd characters) the pass-through bytes must parse, strictly, to exactly the proto the gRPC
 * mapping builds, so the field rules cannot drift apart.
 */
class WireModelUnitTest {

    private static final String[] ODD = { "plain", "ünïcødé", "quote\"s and \\backslashes\\", "tab\tnew\nline", "emoji \uD83D\uDE00",
            "</script>", "", "spaces  ", "\u2028line separator", "中文" };

    @Test
    void passThroughJsonParsesToTheMappedProtoForEveryGeneratedTask() throws Exception {
        Random random = new Random(20261202L);
        List<TaskView> tasks = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            TaskView view = task(random, i);
            Task mapped = ProtoTasks.task(view);
            Task.Builder parsed = Task.newBuilder();
            JsonFormat.parser().merge(new String(TaskJson.task(view), StandardCharsets.UTF_8), parsed); // strict: unknown fields fail
            assertEquals(mapped, parsed.build(), "task " + i + ": " + new String(TaskJson.task(view), StandardCharsets.UTF_8));
            tasks.add(view);
        }
        // A page of them the same way, as ListTasks returns it.
        TaskPage page = new TaskPage(tasks.subList(0, 50), "next-token", 50, 400);
        var parsedPage = dev.a2atasks.proto.v1.ListTasksResponse.newBuilder();
        JsonFormat.parser().merge(new String(TaskJson.page(page), StandardCharsets.UTF_8), parsedPage);
        assertEquals(ProtoTasks.response(page), parsedPage.build());
    }

    private static TaskView task(Random random, int i) {
        TaskState[] states = { TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED,
                TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_INPUT_REQUIRED,
                TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_AUTH_REQUIRED };
        String id = "task-" + i + "-" + odd(random);
        String contextId = random.nextInt(3) == 0 ? "" : "ctx-" + odd(random);
        long micros = 1_700_000_000_000_000L + random.nextLong(100_000_000_000_000L);
        if (random.nextBoolean()) {
            micros -= micros % 1000; // whole milliseconds are written with three digits, others with six
        }
        Instant at = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
        String statusMessage = random.nextInt(3) == 0 ? ProtoJsonColumns.print(Message.newBuilder().setMessageId("sm-" + i)
                .setRole(Role.ROLE_AGENT).setTaskId(id).setContextId(contextId).addParts(part(random)).build()) : null;
        List<MessageView> history = switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> List.of();
            default -> messages(random);
        };
        List<ArtifactView> artifacts = switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> List.of();
            default -> artifacts(random);
        };
        return new TaskView(i, id, contextId, states[i % states.length].name(), at, statusMessage, struct(random), history, artifacts);
    }

    private static List<MessageView> messages(Random random) {
        List<MessageView> messages = new ArrayList<>();
        for (int m = 0; m < 1 + random.nextInt(4); m++) {
            messages.add(new MessageView(m, "m-" + m + "-" + odd(random), m % 2 == 0 ? "ROLE_USER" : "ROLE_AGENT", parts(random),
                    struct(random), random.nextBoolean() ? ProtoJsonColumns.printStrings(List.of("https://ext.example/v1", odd(random))) : null,
                    random.nextBoolean() ? ProtoJsonColumns.printStrings(List.of("ref-" + odd(random))) : null));
        }
        return messages;
    }

    private static List<ArtifactView> artifacts(Random random) {
        List<ArtifactView> artifacts = new ArrayList<>();
        for (int a = 0; a < 1 + random.nextInt(3); a++) {
            artifacts.add(new ArtifactView("a-" + a + "-" + odd(random), random.nextBoolean() ? "name " + odd(random) : null,
                    random.nextBoolean() ? "description " + odd(random) : null, parts(random), struct(random),
                    random.nextBoolean() ? ProtoJsonColumns.printStrings(List.of("https://ext.example/v1")) : null));
        }
        return artifacts;
    }

    private static String parts(Random random) {
        List<Part> parts = new ArrayList<>();
        for (int p = 0; p < 1 + random.nextInt(3); p++) {
            parts.add(part(random));
        }
        return ProtoJsonColumns.printParts(parts);
    }

    private static Part part(Random random) {
        Part.Builder part = Part.newBuilder();
        switch (random.nextInt(4)) {
            case 0 -> part.setText(odd(random));
            case 1 -> part.setRaw(ByteString.copyFrom(odd(random).getBytes(StandardCharsets.UTF_8))).setMediaType("application/octet-stream");
            case 2 -> part.setUrl("https://files.example/" + random.nextInt(1000)).setFilename("f-" + odd(random));
            default -> part.setData(Value.newBuilder().setStructValue(Struct.newBuilder()
                    .putFields("k", Value.newBuilder().setNumberValue(random.nextInt(100)).build())));
        }
        if (random.nextInt(4) == 0) {
            part.setMetadata(Struct.newBuilder().putFields("note", Value.newBuilder().setStringValue(odd(random)).build()));
        }
        return part.build();
    }

    private static String struct(Random random) {
        if (random.nextBoolean()) {
            return null;
        }
        return ProtoJsonColumns.printStruct(Struct.newBuilder()
                .putFields("s", Value.newBuilder().setStringValue(odd(random)).build())
                .putFields("n", Value.newBuilder().setNumberValue(random.nextInt(1_000_000) / 8.0).build())
                .putFields("b", Value.newBuilder().setBoolValue(random.nextBoolean()).build())
                .putFields("l", Value.newBuilder().setListValue(com.google.protobuf.ListValue.newBuilder()
                        .addValues(Value.newBuilder().setStringValue(odd(random)))).build())
                .build());
    }

    private static String odd(Random random) {
        return ODD[random.nextInt(ODD.length)];
    }
}
