package dev.a2atasks.agent;

import java.util.List;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.Message;

/**
 * What the agent is asked to work on: the caller, the task (new or continued), the user's message
 * (with taskId and contextId set), the media types the client accepts and the extensions it
 * requested.
 */
public record AgentRequest(Caller caller, String taskId, String contextId, Message message, boolean newTask,
        List<String> acceptedOutputModes, List<String> extensions) {

    /** The text of the message's text parts, joined by newlines. */
    public String text() {
        StringBuilder text = new StringBuilder();
        message.getPartsList().stream().filter(p -> p.hasText()).forEach(p -> {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append(p.getText());
        });
        return text.toString();
    }
}
