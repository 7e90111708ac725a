package dev.a2atasks.task.store;

import io.smallrye.mutiny.Uni;

/**
 * A write another package adds to a task write, done in its transaction while the task row is
 * locked (SendMessage's webhook registration: stored before the status change it is owed).
 */
@FunctionalInterface
public interface LockedTaskWrite {

    Uni<?> write(TaskEntity lockedTask);
}
