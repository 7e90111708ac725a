package dev.a2atasks.task.read;

import java.time.Instant;

import dev.a2atasks.proto.v1.TaskState;

/**
 * A validated ListTasks request with every default applied. Nullable filters are absent;
 * {@code pageToken} is still sealed: opening it needs the caller and this filter set.
 */
public record ListTasksQuery(String tenant, String contextId, TaskState status, int pageSize, String pageToken,
        int historyLength, Instant statusTimestampAfter, boolean includeArtifacts) {
}
