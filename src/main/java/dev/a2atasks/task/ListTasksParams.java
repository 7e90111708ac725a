package dev.a2atasks.task;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.proto.v1.TaskState;

/**
 * ListTasks parameters as typed values, the same whichever binding decoded them: gRPC from its
 * typed fields, the JSON bindings from text through {@link TextParams}. Text fields are null when
 * absent. {@code undecodable} holds the values the binding received but could not turn into
 * their type (a non-integer pageSize, a Timestamp out of range); the validator reports them in
 * field order with its own findings, so one response names every bad field.
 */
public record ListTasksParams(String tenant, String contextId, Optional<TaskState> status, OptionalInt pageSize,
        String pageToken, OptionalInt historyLength, Optional<Instant> statusTimestampAfter,
        Optional<Boolean> includeArtifacts, List<FieldViolation> undecodable) {

    public ListTasksParams {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(pageSize, "pageSize");
        Objects.requireNonNull(historyLength, "historyLength");
        Objects.requireNonNull(statusTimestampAfter, "statusTimestampAfter");
        Objects.requireNonNull(includeArtifacts, "includeArtifacts");
        undecodable = List.copyOf(undecodable);
    }

    /** No filters, every default: what {@code GET /tasks} asks for. */
    public static ListTasksParams none() {
        return new ListTasksParams(null, null, Optional.empty(), OptionalInt.empty(), null, OptionalInt.empty(),
                Optional.empty(), Optional.empty(), List.of());
    }
}
