package dev.a2atasks.task.store;

import java.util.Set;

import dev.a2atasks.proto.v1.TaskState;

/** The two kinds of state a task can stop in: terminal (never left) and interrupted (waiting for the client). */
public final class TaskStates {

    private static final Set<String> TERMINAL = Set.of(TaskState.TASK_STATE_COMPLETED.name(), TaskState.TASK_STATE_FAILED.name(),
            TaskState.TASK_STATE_CANCELED.name(), TaskState.TASK_STATE_REJECTED.name());
    private static final Set<String> INTERRUPTED = Set.of(TaskState.TASK_STATE_INPUT_REQUIRED.name(),
            TaskState.TASK_STATE_AUTH_REQUIRED.name());

    private TaskStates() {
    }

    public static boolean isTerminal(String state) {
        return TERMINAL.contains(state);
    }

    /** Terminal or interrupted: where a blocking SendMessage returns. */
    public static boolean isSettled(String state) {
        return TERMINAL.contains(state) || INTERRUPTED.contains(state);
    }
}
