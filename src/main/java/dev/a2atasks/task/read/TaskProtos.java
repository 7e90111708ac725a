package dev.a2atasks.task.read;

import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.task.store.ProtoJsonColumns;
import dev.a2atasks.time.Timestamps;

/**
 * The one mapping from a stored task to {@code lf.a2a.v1.Task}: which fields are set and how.
 * gRPC sends its result; the JSON bindings' fast writer is pinned against its ProtoJSON form
 * (WireModelUnitTest); operations that answer with protos (SendMessage) build theirs here.
 */
public final class TaskProtos {

    private TaskProtos() {
    }

    public static Task task(TaskView view) {
        TaskStatus.Builder status = TaskStatus.newBuilder()
                .setState(TaskState.valueOf(view.state()))
                .setTimestamp(Timestamps.toProto(view.statusTimestamp()));
        if (view.statusMessageJson() != null) {
            status.setMessage(ProtoJsonColumns.parse(view.statusMessageJson(), Message.newBuilder()));
        }
        Task.Builder task = Task.newBuilder().setId(view.id()).setContextId(view.contextId()).setStatus(status);
        if (view.metadataJson() != null) {
            task.setMetadata(ProtoJsonColumns.parseStruct(view.metadataJson()));
        }
        if (view.history() != null) {
            for (MessageView m : view.history()) {
                task.addHistory(message(m, view.id(), view.contextId()));
            }
        }
        if (view.artifacts() != null) {
            for (ArtifactView a : view.artifacts()) {
                task.addArtifacts(artifact(a));
            }
        }
        return task.build();
    }

    /** A stored message of a task, with the task's id and context as every message of it carries them. */
    public static Message message(MessageView m, String taskId, String contextId) {
        Message.Builder message = Message.newBuilder()
                .setMessageId(m.messageId())
                .setContextId(contextId)
                .setTaskId(taskId)
                .setRole(Role.valueOf(m.role()))
                .addAllParts(ProtoJsonColumns.parseParts(m.partsJson()))
                .addAllExtensions(ProtoJsonColumns.parseStrings(m.extensionsJson()))
                .addAllReferenceTaskIds(ProtoJsonColumns.parseStrings(m.referenceTaskIdsJson()));
        if (m.metadataJson() != null) {
            message.setMetadata(ProtoJsonColumns.parseStruct(m.metadataJson()));
        }
        return message.build();
    }

    private static Artifact artifact(ArtifactView a) {
        return ProtoJsonColumns.artifact(a.artifactId(), a.name(), a.description(), a.partsJson(), a.metadataJson(),
                a.extensionsJson());
    }

}
