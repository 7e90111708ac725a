package dev.a2atasks.client;

import java.util.Collection;
import java.util.List;
import java.util.Set;

import dev.a2atasks.proto.v1.Message;

/**
 * Where a {@link TranscriptCopy} keeps its messages: per task, keyed by message id, in the order
 * they were appended. {@link InMemoryTranscriptStore} is one; the service's mirror keeps its copies
 * in its own database through another.
 */
public interface TranscriptStore {

    /** Which of these message ids the copy of the task holds already. */
    Set<String> known(String taskId, Collection<String> messageIds);

    /** Whether the copy of the task holds any message at all. */
    boolean isEmpty(String taskId);

    /**
     * Appends these messages, oldest first, after the ones held. A message id held already is
     * skipped, so appending the same page twice (a retry after a failure) changes nothing.
     */
    void append(String taskId, List<Message> messages);
}
