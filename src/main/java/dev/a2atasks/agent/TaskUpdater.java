package dev.a2atasks.agent;

import java.util.List;

import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.TaskState;

/**
 * How an agent reports on its task. Every call is one transaction (the change and its stream
 * event), committed before the call returns, in call order. Once the run's turn is over (it
 * reported a terminal or interrupted state, a client canceled the task, or another run took it
 * over) further calls throw {@link TaskClosedException}.
 */
public interface TaskUpdater {

    /** A new status, with an optional agent message (text; null for none). */
    void status(TaskState state, String text);

    /** A new status with a full agent message (role and ids are filled in). */
    void status(TaskState state, Message message);

    default void working(String text) {
        status(TaskState.TASK_STATE_WORKING, text);
    }

    /** Ends the agent's turn waiting for the client: INPUT_REQUIRED with a question. */
    default void requireInput(String question) {
        status(TaskState.TASK_STATE_INPUT_REQUIRED, question);
    }

    default void complete(String text) {
        status(TaskState.TASK_STATE_COMPLETED, text);
    }

    default void fail(String reason) {
        status(TaskState.TASK_STATE_FAILED, reason);
    }

    default void reject(String reason) {
        status(TaskState.TASK_STATE_REJECTED, reason);
    }

    /** A whole artifact: new, or replacing the one with the same id. */
    void artifact(Artifact artifact);

    /** More parts for an artifact (created by the first chunk); {@code lastChunk} on the final one. */
    void appendArtifact(String artifactId, String name, List<Part> parts, boolean lastChunk);

    /**
     * Answers with a message instead of a task's results: the message is stored and the task
     * COMPLETED; SendMessage returns the message itself (spec §3.1.1, "direct Message").
     */
    void reply(Message message);

    /** Whether the task was canceled (or otherwise finished) meanwhile: a long agent should check it. */
    boolean isClosed();

    /** Thrown by an update on a task that is already terminal; the update was not applied. */
    final class TaskClosedException extends RuntimeException {
        public TaskClosedException(String message) {
            super(message, null, false, false);
        }
    }
}
