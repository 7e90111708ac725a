package dev.a2atasks.client;

import java.time.Instant;

import com.google.protobuf.Timestamp;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.TaskState;

/**
 * What to list. historyLength is always sent explicitly: leaving it unset would hand the choice
 * to the server's default, which may be the whole history.
 *
 * @param tenant               "" for the caller's own tenant
 * @param contextId            null for every context
 * @param status               null for every state
 * @param statusTimestampAfter null for no lower bound (inclusive)
 */
public record ListFilter(String tenant, String contextId, TaskState status, Instant statusTimestampAfter,
        int historyLength, boolean includeArtifacts, int pageSize) {

    /** Everything, status only (no history, no artifacts), 100 per page. */
    public static ListFilter all() {
        return new ListFilter("", null, null, null, 0, false, 100);
    }

    public ListFilter withPageSize(int size) {
        return new ListFilter(tenant, contextId, status, statusTimestampAfter, historyLength, includeArtifacts, size);
    }

    public ListFilter withHistoryLength(int length) {
        return new ListFilter(tenant, contextId, status, statusTimestampAfter, length, includeArtifacts, pageSize);
    }

    public ListFilter withIncludeArtifacts(boolean include) {
        return new ListFilter(tenant, contextId, status, statusTimestampAfter, historyLength, include, pageSize);
    }

    public ListFilter withStatusTimestampAfter(Instant after) {
        return new ListFilter(tenant, contextId, status, after, historyLength, includeArtifacts, pageSize);
    }

    public ListFilter withStatus(TaskState state) {
        return new ListFilter(tenant, contextId, state, statusTimestampAfter, historyLength, includeArtifacts, pageSize);
    }

    ListTasksRequest request(String pageToken) {
        ListTasksRequest.Builder request = ListTasksRequest.newBuilder()
                .setTenant(tenant == null ? "" : tenant)
                .setPageSize(pageSize)
                .setHistoryLength(historyLength)
                .setIncludeArtifacts(includeArtifacts)
                .setPageToken(pageToken);
        if (contextId != null) {
            request.setContextId(contextId);
        }
        if (status != null) {
            request.setStatus(status);
        }
        if (statusTimestampAfter != null) {
            request.setStatusTimestampAfter(Timestamp.newBuilder()
                    .setSeconds(statusTimestampAfter.getEpochSecond()).setNanos(statusTimestampAfter.getNano()));
        }
        return request.build();
    }
}
