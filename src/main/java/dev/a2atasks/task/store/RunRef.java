package dev.a2atasks.task.store;

import java.util.UUID;

import dev.a2atasks.auth.Caller;

/** What a run writes through: the caller's task (and its context), and the run that must still own it. */
public record RunRef(Caller owner, String taskId, String contextId, UUID runId) {
}
