package dev.a2atasks.task;

/** A validated GetTask request with the history default applied. */
public record GetTaskQuery(String tenant, String id, int historyLength) {
}
