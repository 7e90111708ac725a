package dev.a2atasks.task;

/** GetTask parameters as a binding received them, as text (null = absent). */
public record GetTaskParams(String tenant, String id, String historyLength) {
}
