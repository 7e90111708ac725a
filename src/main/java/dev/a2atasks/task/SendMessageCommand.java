package dev.a2atasks.task;

import java.util.List;
import java.util.OptionalInt;

import dev.a2atasks.proto.v1.Message;

/**
 * A validated SendMessage: the user's message, which task it continues (null: a new task) and in
 * which context (null: the task's, or a new one), and how the caller wants the answer,
 * and the webhook to register with it (null: none).
 */
public record SendMessageCommand(String tenant, String taskId, String contextId, Message message,
        List<String> acceptedOutputModes, OptionalInt historyLength, boolean returnImmediately, PushConfigCommand pushConfig) {
}
