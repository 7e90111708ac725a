package dev.a2atasks.task;

import java.time.Instant;

/**
 * A validated ListTasks request with every default applied. Nullable filters are absent;
 * {@code pageToken} is still sealed: opening it needs the caller and this filter set.
 */
public record ListTasksQuery(String tenant, String contextId, String status, int pageSize, String pageToken,
        int historyLength, Instant statusTimestampAfter, boolean includeArtifacts) {
}
