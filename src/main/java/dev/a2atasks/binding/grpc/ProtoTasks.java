package dev.a2atasks.binding.grpc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.task.read.MessageView;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.task.read.ArtifactView;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.ListTasksParams;
import dev.a2atasks.task.store.ProtoJsonColumns;
import dev.a2atasks.task.TaskPage;
import dev.a2atasks.task.read.TaskView;
import dev.a2atasks.time.Timestamps;
import dev.a2atasks.validation.Grammar;

/** Translation between gRPC messages and the service's parameters and views; nothing else. */
final class ProtoTasks {

    private ProtoTasks() {
    }

    static ListTasksParams params(ListTasksRequest r) {
        List<FieldViolation> undecodable = new ArrayList<>();
        Optional<Instant> after = Optional.empty();
        if (r.hasStatusTimestampAfter()) {
            after = Timestamps.fromProto(r.getStatusTimestampAfter());
            if (after.isEmpty()) { // seconds or nanos outside what a Timestamp may hold
                undecodable.add(new FieldViolation("statusTimestampAfter", Grammar.notATimestamp("statusTimestampAfter")));
            }
        }
        return new ListTasksParams(r.getTenant(), r.getContextId(), Optional.of(r.getStatus()),
                r.hasPageSize() ? OptionalInt.of(r.getPageSize()) : OptionalInt.empty(), r.getPageToken(),
                r.hasHistoryLength() ? OptionalInt.of(r.getHistoryLength()) : OptionalInt.empty(), after,
                r.hasIncludeArtifacts() ? Optional.of(r.getIncludeArtifacts()) : Optional.empty(), undecodable);
    }

    static GetTaskParams params(GetTaskRequest r) {
        return new GetTaskParams(r.getTenant(), r.getId(),
                r.hasHistoryLength() ? OptionalInt.of(r.getHistoryLength()) : OptionalInt.empty(), List.of());
    }

    static ListTasksResponse response(TaskPage page) {
        ListTasksResponse.Builder response = ListTasksResponse.newBuilder()
                .setNextPageToken(page.nextPageToken())
                .setPageSize(page.pageSize())
                .setTotalSize(page.totalSize());
        for (TaskView task : page.tasks()) {
            response.addTasks(task(task));
        }
        return response.build();
    }

    static Task task(TaskView view) {
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
                task.addHistory(message(m, view));
            }
        }
        if (view.artifacts() != null) {
            for (ArtifactView a : view.artifacts()) {
                task.addArtifacts(artifact(a));
            }
        }
        return task.build();
    }

    private static Message message(MessageView m, TaskView task) {
        Message.Builder message = Message.newBuilder()
                .setMessageId(m.messageId())
                .setContextId(task.contextId())
                .setTaskId(task.id())
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
        Artifact.Builder artifact = Artifact.newBuilder()
                .setArtifactId(a.artifactId())
                .addAllParts(ProtoJsonColumns.parseParts(a.partsJson()))
                .addAllExtensions(ProtoJsonColumns.parseStrings(a.extensionsJson()));
        if (a.name() != null) {
            artifact.setName(a.name());
        }
        if (a.description() != null) {
            artifact.setDescription(a.description());
        }
        if (a.metadataJson() != null) {
            artifact.setMetadata(ProtoJsonColumns.parseStruct(a.metadataJson()));
        }
        return artifact.build();
    }

}
