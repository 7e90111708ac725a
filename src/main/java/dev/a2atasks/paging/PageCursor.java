package dev.a2atasks.paging;

/**
 * Where a walk stands: the sort key of the last task served and the walk's total, which is
 * counted once on the first page and carried forward.
 */
public record PageCursor(long statusTimestampMicros, String taskId, int totalSize) {
}
