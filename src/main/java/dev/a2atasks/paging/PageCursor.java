package dev.a2atasks.paging;

/**
 * Where a walk stands: the sort key of the last item served and the walk's total, which is
 * counted once on the first page and carried forward. A ListTasks walk keeps the last task's
 * status timestamp and id; a transcript walk (ListTaskMessages) keeps the last message's seq in
 * the first slot, with no id and no total.
 */
public record PageCursor(long statusTimestampMicros, String taskId, int totalSize) {

    /** Where a transcript walk stands: after the message with this seq. */
    public static PageCursor afterSeq(long seq) {
        return new PageCursor(seq, "", 0);
    }

    /** The seq of a transcript walk's cursor. */
    public long seq() {
        return statusTimestampMicros;
    }
}
