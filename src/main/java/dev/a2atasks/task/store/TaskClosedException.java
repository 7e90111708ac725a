package dev.a2atasks.task.store;

/** Thrown to a run's update once its task is terminal or not its own any more: the update is not applied. */
public final class TaskClosedException extends RuntimeException {

    TaskClosedException(String taskId, String state) {
        super("Task " + taskId + " is " + state + "; the update was not applied", null, false, false);
    }

    TaskClosedException(String taskId) {
        super("Task " + taskId + " is no longer owned by this run (canceled, taken over, or its turn ended);"
                + " the update was not applied", null, false, false);
    }
}
