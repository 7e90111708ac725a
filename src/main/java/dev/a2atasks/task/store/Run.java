package dev.a2atasks.task.store;

import java.util.UUID;

import dev.a2atasks.proto.v1.Message;

/** One run of the agent: its fencing token, and the user message it answers (history seq, content). */
public record Run(UUID id, long inputSeq, Message input) {
}
