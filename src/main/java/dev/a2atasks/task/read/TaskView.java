package dev.a2atasks.task.read;

import java.time.Instant;
import java.util.List;

import dev.a2atasks.task.read.MessageView;

/**
 * A task as ListTasks and GetTask return it. {@code history} and {@code artifacts} are null when
 * the response must leave the field out (historyLength 0; artifacts not asked for). JSON fields
 * are ProtoJSON text from the store, null when absent.
 */
public record TaskView(long pk, String id, String contextId, String state, Instant statusTimestamp,
        String statusMessageJson, String metadataJson, List<MessageView> history, List<ArtifactView> artifacts) {

    public TaskView with(List<MessageView> history, List<ArtifactView> artifacts) {
        return new TaskView(pk, id, contextId, state, statusTimestamp, statusMessageJson, metadataJson, history, artifacts);
    }
}
