package dev.a2atasks.execution;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import dev.a2atasks.agent.TaskUpdater;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.task.store.Lease;
import dev.a2atasks.task.store.Run;
import dev.a2atasks.task.store.RunRef;
import dev.a2atasks.task.store.RunWrites;
import dev.a2atasks.task.store.TaskStates;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;

/**
 * The agent's view of its task during one run ({@link TaskUpdater}): every call is one committed
 * transaction of the run, fenced by its token, then a wake-up for whoever waits on the task. A
 * write the store refuses (the task was canceled, taken over, or the turn ended) closes the run.
 */
public final class RunUpdater implements TaskUpdater {
    private static final Logger LOG = Logger.getLogger(RunUpdater.class);

    private final AgentRunner.Execution execution;
    private final RunWrites runs;
    private final Lease lease;
    private final Duration writeTimeout;
    private final TaskSignals signals;
    private final RunRef ref;
    /** The run the store handed over when this one ended its turn with messages queued. */
    private volatile Run next;

    RunUpdater(AgentRunner.Execution execution, RunWrites runs, Lease lease, Duration writeTimeout, TaskSignals signals) {
        this.execution = execution;
        this.runs = runs;
        this.lease = lease;
        this.writeTimeout = writeTimeout;
        this.signals = signals;
        this.ref = new RunRef(execution.request.caller(), execution.request.taskId(), execution.request.contextId(),
                execution.run.id());
    }

    /** The run the store handed over at the end of this turn, or null. */
    Run handedOver() {
        return next;
    }

    @Override
    public void status(TaskState state, String text) {
        status(state, text == null ? null : Message.newBuilder().addParts(Part.newBuilder().setText(text)).build());
    }

    @Override
    public void status(TaskState state, Message message) {
        TaskStatus.Builder status = TaskStatus.newBuilder().setState(state);
        if (message != null) {
            status.setMessage(agentMessage(message));
        }
        settle(status.build(), () -> {
        });
    }

    @Override
    public void artifact(Artifact artifact) {
        write(() -> runs.recordArtifact(ref, artifact, false, true), () -> {
        });
    }

    @Override
    public void appendArtifact(String artifactId, String name, List<Part> parts, boolean lastChunk) {
        Artifact.Builder chunk = Artifact.newBuilder().setArtifactId(artifactId).addAllParts(parts);
        if (name != null) {
            chunk.setName(name);
        }
        write(() -> runs.recordArtifact(ref, chunk.build(), true, lastChunk), () -> {
        });
    }

    @Override
    public void reply(Message message) {
        Message reply = agentMessage(message);
        // The reply is known before the wake-up: a waiter that sees COMPLETED must find it.
        settle(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED).setMessage(reply).build(),
                () -> execution.reply.complete(reply));
    }

    @Override
    public boolean isClosed() {
        return execution.closed;
    }

    /** A status write; one that ends the turn marks the run settled and keeps the run handed over, if any. */
    private void settle(TaskStatus status, Runnable afterCommit) {
        Run handedOver = write(() -> runs.recordStatus(ref, status, lease), () -> {
            afterCommit.run();
            if (TaskStates.isSettled(status.getState().name())) {
                execution.settled = true;
                execution.settledState = status.getState().name();
                execution.turnEnded.complete(null);
            }
        });
        if (handedOver != null) {
            next = handedOver;
        }
    }

    void finishQuietly(String reason) {
        try {
            status(TaskState.TASK_STATE_FAILED, reason);
        } catch (TaskClosedException closed) {
            // already terminal (canceled meanwhile) or no longer this run's: nothing to finish
        } catch (RuntimeException e) {
            LOG.errorf(e, "Could not mark task %s FAILED (its lease expires and the sweeper fails it)", execution.request.taskId());
        }
    }

    private Message agentMessage(Message message) {
        Message.Builder agentMessage = message.toBuilder().setRole(Role.ROLE_AGENT)
                .setTaskId(execution.request.taskId()).setContextId(execution.request.contextId());
        if (agentMessage.getMessageId().isEmpty()) {
            agentMessage.setMessageId(UUID.randomUUID().toString());
        }
        return agentMessage.build();
    }

    /**
     * One committed change of this run, waited for at most {@code a2a.agent.write-timeout};
     * {@code afterCommit} runs before waiters are woken. While every commit is signalled by its
     * NOTIFY ({@link TaskSignals#everyCommitSignalled}), this one is too, and is not signalled
     * twice: each commit of the run wakes a waiter once, which is how a waiter here tells the
     * run's own commits from others'.
     */
    private <T> T write(Supplier<Uni<T>> change, Runnable afterCommit) {
        if (execution.closed) {
            throw new TaskClosedException("Task " + execution.request.taskId() + " was canceled or is no longer this run's");
        }
        T result;
        try {
            result = VertxContextSupport.subscribeAndAwait(() -> change.get().ifNoItem().after(writeTimeout)
                    .failWith(() -> new TimeoutException("The task's update did not commit within " + writeTimeout)));
        } catch (dev.a2atasks.task.store.TaskClosedException closed) { // the store refused: the run lost its task
            execution.closed = true;
            throw new TaskClosedException(closed.getMessage());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        execution.commits.incrementAndGet();
        afterCommit.run();
        execution.firstUpdate.complete(null);
        if (!signals.everyCommitSignalled()) {
            signals.fire(execution.taskPk);
        }
        return result;
    }
}
