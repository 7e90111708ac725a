package dev.a2atasks.task.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;

import dev.a2atasks.auth.Caller;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/** A task with three messages and one artifact goes into PostgreSQL through the entities and comes back whole. */
@QuarkusTest
class TaskStoreTest {

    @Inject
    TaskStore store;

    @Test
    void taskWithThreeMessagesAndOneArtifactRoundTrips() throws Throwable {
        Caller caller = new Caller("store-test", "alice");
        Instant ts = Instant.parse("2026-03-04T05:06:07.123456Z");
        Task task = Task.newBuilder()
                .setId("round-trip-1").setContextId("ctx-1")
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING)
                        .setTimestamp(Timestamp.newBuilder().setSeconds(ts.getEpochSecond()).setNanos(ts.getNano())))
                .setMetadata(Struct.newBuilder().putFields("priority", Value.newBuilder().setNumberValue(3).build()))
                .addHistory(message("m1", Role.ROLE_USER, "hello"))
                .addHistory(message("m2", Role.ROLE_AGENT, "working on it"))
                .addHistory(message("m3", Role.ROLE_AGENT, "done").toBuilder().addReferenceTaskIds("other-task").build())
                .addArtifacts(Artifact.newBuilder().setArtifactId("a1").setName("report")
                        .addParts(Part.newBuilder().setUrl("https://files.example/r.pdf").setMediaType("application/pdf")))
                .build();

        Long pk = VertxContextSupport.subscribeAndAwait(() -> store.create(caller, task));

        TaskEntity row = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> TaskEntity.<TaskEntity>findById(pk)));
        assertEquals("store-test", row.tenant);
        assertEquals("alice", row.owner);
        assertEquals("round-trip-1", row.id);
        assertEquals("ctx-1", row.contextId);
        assertEquals("TASK_STATE_WORKING", row.state);
        assertEquals(ts, row.statusTimestamp.toInstant(), "microsecond precision survives");
        assertEquals(3, row.nextSeq);
        assertEquals(task.getMetadata(), ProtoJsonColumns.parseStruct(row.metadataJson));
        assertNull(row.statusMessageJson);

        List<MessageEntity> messages = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(
                () -> MessageEntity.<MessageEntity>list("taskPk = ?1 order by seq", pk)));
        assertEquals(3, messages.size());
        for (int i = 0; i < 3; i++) {
            MessageEntity m = messages.get(i);
            Message expected = task.getHistory(i);
            assertEquals(i, m.seq);
            assertEquals(expected.getMessageId(), m.messageId);
            assertEquals(expected.getRole().name(), m.role);
            assertEquals(expected.getPartsList(), ProtoJsonColumns.parseParts(m.partsJson));
            assertEquals(expected.getReferenceTaskIdsList(), ProtoJsonColumns.parseStrings(m.referenceTaskIdsJson));
        }

        List<ArtifactEntity> artifacts = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(
                () -> ArtifactEntity.<ArtifactEntity>list("taskPk = ?1 order by ord", pk)));
        assertEquals(1, artifacts.size());
        assertEquals("a1", artifacts.get(0).artifactId);
        assertEquals("report", artifacts.get(0).name);
        assertEquals(task.getArtifacts(0).getPartsList(), ProtoJsonColumns.parseParts(artifacts.get(0).partsJson));
    }

    @Test
    void appendedMessagesTakeTheNextSequenceNumbers() throws Throwable {
        Caller caller = new Caller("store-test", "bob");
        Task task = Task.newBuilder().setId("append-1")
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_SUBMITTED))
                .addHistory(message("first", Role.ROLE_USER, "hi")).build();
        Long pk = VertxContextSupport.subscribeAndAwait(() -> store.create(caller, task));
        assertEquals(1L, VertxContextSupport.<Long>subscribeAndAwait(() -> store.appendMessage(caller, "append-1", message("second", Role.ROLE_AGENT, "yo"))));
        assertEquals(2L, VertxContextSupport.<Long>subscribeAndAwait(() -> store.appendMessage(caller, "append-1", message("third", Role.ROLE_USER, "ok"))));
        TaskEntity row = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> TaskEntity.<TaskEntity>findById(pk)));
        assertEquals(3, row.nextSeq);
    }

    static Message message(String id, Role role, String text) {
        return Message.newBuilder().setMessageId(id).setRole(role).addParts(Part.newBuilder().setText(text)).build();
    }
}
