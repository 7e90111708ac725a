package dev.a2atasks.task;

/**
 * A validated ListTaskMessages request (history-paging extension). {@code startSeq} and
 * {@code startMessageId} are both null, or exactly one is set: where the first page begins, that
 * message included.
 */
public record TranscriptQuery(String tenant, String taskId, int pageSize, String pageToken, boolean newestFirst,
        Long startSeq, String startMessageId) {
}
