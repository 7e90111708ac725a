package dev.a2atasks.mirror;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.client.TranscriptStore;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.task.read.TaskReads;
import dev.a2atasks.task.store.TaskStore;

/**
 * The mirror's {@link TranscriptStore}: the local copies' messages in this service's own tables,
 * under the source's local owner. Message ids are looked up on the (task, message id) index;
 * appends go through the store, under the copy's row lock. Blocking, like the mirror.
 */
final class MirroredTranscripts implements TranscriptStore {

    private final Caller owner;
    private final TaskStore store;
    private final TaskReads reads;
    private long added;

    MirroredTranscripts(Caller owner, TaskStore store, TaskReads reads) {
        this.owner = owner;
        this.store = store;
        this.reads = reads;
    }

    @Override
    public Set<String> known(String taskId, Collection<String> messageIds) {
        return new HashSet<>(Mirror.await(() -> reads.heldMessageIds(owner, taskId, messageIds)));
    }

    @Override
    public boolean isEmpty(String taskId) {
        return !Mirror.await(() -> reads.hasMessages(owner, taskId));
    }

    @Override
    public void append(String taskId, List<Message> messages) {
        added += Mirror.await(() -> store.appendCopied(owner, taskId, messages));
    }

    /** Messages really written so far (a skipped duplicate is not counted). */
    long added() {
        return added;
    }
}
