package dev.a2atasks.task;

/**
 * ListTasks parameters exactly as a binding received them, as text (null = absent). Every binding
 * fills this and nothing else, so validation, and the wording of every error, exists once.
 */
public record ListTasksParams(String tenant, String contextId, String status, String pageSize, String pageToken,
        String historyLength, String statusTimestampAfter, String includeArtifacts) {
}
