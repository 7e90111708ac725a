package dev.a2atasks.task;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

import dev.a2atasks.error.FieldViolation;

/** GetTask parameters as typed values; see {@link ListTasksParams} for {@code undecodable}. */
public record GetTaskParams(String tenant, String id, OptionalInt historyLength, List<FieldViolation> undecodable) {

    public GetTaskParams {
        Objects.requireNonNull(historyLength, "historyLength");
        undecodable = List.copyOf(undecodable);
    }
}
