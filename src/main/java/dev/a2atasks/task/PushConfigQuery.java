package dev.a2atasks.task;

/**
 * A validated Get/Delete (one registration: {@code id} set) or List ({@code id} null, a page
 * size and maybe a page token) of a task's webhook registrations.
 */
public record PushConfigQuery(String tenant, String taskId, String id, int pageSize, String pageToken) {
}
