package dev.a2atasks.client;

import java.util.Map;

import dev.a2atasks.proto.v1.Task;

/** Every task a walk saw, by id (the latest copy of each), and what the walk cost. */
public record WalkResult(Map<String, Task> tasks, WalkStats stats) {
}
