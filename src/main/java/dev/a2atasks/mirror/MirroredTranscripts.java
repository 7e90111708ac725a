package dev.a2atasks.mirror;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.client.TranscriptStore;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.task.read.TaskReads;
import dev.a2atasks.task.store.MirrorCopies;

/**
 * The mirror's {@link TranscriptStore}: the local copies' messages in this service's own tables,
 * under the source's local owner. Message ids are looked up on the (task, message id) index;
 * appends go through the store, under the copy's row lock. Blocking, like the mirror.
 */
final class MirroredTranscripts implements TranscriptStore {

    private final Caller owner;
    private final String source;
    private final MirrorCopies store;
    private final TaskReads reads;
    private final BooleanSupplier stopping;

    MirroredTranscripts(Caller owner, String source, MirrorCopies store, TaskReads reads, BooleanSupplier stopping) {
        this.owner = owner;
        this.source = source;
        this.store = store;
        this.reads = reads;
        this.stopping = stopping;
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
        if (stopping.getAsBoolean()) {
            throw new Mirror.Stopped();
        }
        Mirror.await(() -> store.appendCopied(owner, source, taskId, messages));
    }
}
