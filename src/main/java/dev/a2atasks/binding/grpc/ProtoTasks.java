package dev.a2atasks.binding.grpc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.ListTasksParams;
import dev.a2atasks.task.TaskPage;
import dev.a2atasks.task.read.TaskProtos;
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
        return TaskProtos.task(view);
    }

}
