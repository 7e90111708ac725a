package dev.a2atasks.task.store;

import io.smallrye.mutiny.Uni;

/**
 * A write another package adds to a task write, done in its transaction while the task row is
 * locked (SendMessage's webhook registration: stored before the status change it is owed).
 */
@FunctionalInterface
public interface LockedTaskWrite {

    Uni<?> write(TaskEntity lockedTask);

    /**
     * The same write as the row a new task's creating statement inserts with it, or null when only
     * {@link #write} can make it. A new task has no registration yet, so nothing needs reading first.
     */
    default NewTaskWebhook asNewTaskWebhook() {
        return null;
    }
}
