package dev.a2atasks.execution;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.a2atasks.agent.AgentExecutor;
import dev.a2atasks.agent.AgentRequest;
import dev.a2atasks.agent.TaskUpdater;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.task.store.TaskStates;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Runs the {@link AgentExecutor} for a user's message on a bounded pool of worker threads
 * ({@code a2a.agent.max-concurrency}), hands it a {@link TaskUpdater} that writes through the
 * one {@link TaskStore}, and makes sure every run ends the agent's turn: an agent that returns
 * without a final or interrupted state, or throws, leaves the task FAILED, never WORKING. A task
 * being run holds a lease (this process, {@code a2a.agent.lease}) renewed every third of it and
 * given up when the run ends; if this process dies, {@link LeaseSweeper} on any replica fails the
 * task once the lease expires.
 */
@ApplicationScoped
public class AgentRunner {

    private static final Logger LOG = Logger.getLogger(AgentRunner.class);

    private final AgentExecutor agent;
    private final TaskStore store;
    private final TaskSignals signals;
    private final ThreadPoolExecutor workers;
    private final Map<Long, Execution> running = new ConcurrentHashMap<>();
    private final TaskStore.Lease lease;
    private final ScheduledExecutorService leases;

    AgentRunner(AgentExecutor agent, TaskStore store, TaskSignals signals, Instance instance,
            @ConfigProperty(name = "a2a.agent.max-concurrency", defaultValue = "32") int maxConcurrency,
            @ConfigProperty(name = "a2a.agent.lease", defaultValue = "30s") Duration leaseDuration) {
        this.agent = agent;
        this.store = store;
        this.signals = signals;
        this.lease = new TaskStore.Lease(instance.id(), leaseDuration);
        this.leases = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "a2a-lease-renewal");
            thread.setDaemon(true);
            return thread;
        });
        long every = Math.max(1, leaseDuration.toMillis() / 3);
        this.leases.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        AtomicInteger threads = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(maxConcurrency, maxConcurrency, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread thread = new Thread(r, "a2a-agent-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.workers.allowCoreThreadTimeOut(true);
    }

    /** The lease a task gets when a message starts a run here: this process, for {@code a2a.agent.lease}. */
    public TaskStore.Lease lease() {
        return lease;
    }

    /** Every third of the lease: the runs still going here keep their tasks. */
    private void renew() {
        List<Long> pks = List.copyOf(running.keySet());
        if (pks.isEmpty()) {
            return;
        }
        try {
            VertxContextSupport.subscribeAndAwait(() -> store.renewLeases(lease, pks));
        } catch (Throwable e) {
            LOG.warnf("Could not renew the leases of %d running tasks: %s", pks.size(), e.toString());
        }
    }

    /** The agent's media types, for SendMessage's acceptedOutputModes check. */
    public java.util.List<String> outputModes() {
        return agent.outputModes();
    }

    /** One run of the agent for one user message. {@code reply} completes if it answered with a direct Message. */
    public static final class Execution {
        final long taskPk;
        final AgentRequest request;
        /** The run's verdict on a direct reply: the message, or null when the run ended without one. */
        final CompletableFuture<Message> reply = new CompletableFuture<>();
        volatile boolean closed;

        Execution(long taskPk, AgentRequest request) {
            this.taskPk = taskPk;
            this.request = request;
        }
    }

    public Execution start(long taskPk, AgentRequest request) {
        Execution execution = new Execution(taskPk, request);
        running.put(taskPk, execution);
        workers.execute(() -> run(execution));
        return execution;
    }

    /** A client canceled the task (already recorded): tell the agent running it here, if any. */
    public void canceled(long taskPk) {
        Execution execution = running.get(taskPk);
        if (execution != null) {
            execution.closed = true;
            CompletableFuture.runAsync(() -> {
                try {
                    agent.cancel(execution.request);
                } catch (RuntimeException e) {
                    LOG.warnf(e, "The agent's cancel hook failed for task %s", execution.request.taskId());
                }
            });
        }
    }

    private void run(Execution execution) {
        Updater updater = new Updater(execution);
        try {
            agent.execute(execution.request, updater);
            if (updater.lastState == null || !TaskStates.isSettled(updater.lastState.name())) {
                updater.finishQuietly("The agent finished without reporting a result");
            }
        } catch (TaskUpdater.TaskClosedException closed) {
            LOG.debugf("Task %s closed while its agent ran", execution.request.taskId());
        } catch (Throwable failure) {
            if (failure instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.errorf(failure, "The agent failed on task %s", execution.request.taskId());
            updater.finishQuietly("The agent failed");
        } finally {
            running.remove(execution.taskPk, execution);
            if (!running.containsKey(execution.taskPk)) {
                try {
                    VertxContextSupport.subscribeAndAwait(() -> store.releaseLease(lease.owner(), execution.taskPk));
                } catch (Throwable e) {
                    LOG.warnf("Could not release the lease of task %s (it expires by itself): %s", execution.request.taskId(), e.toString());
                }
            }
            execution.reply.complete(null); // no-op when it replied
            signals.fire(execution.taskPk);
        }
    }

    @PreDestroy
    void stop() {
        leases.shutdownNow();
        workers.shutdownNow();
    }

    /** The agent's view of its task: every call one committed transaction, then a wake-up for waiters. */
    private final class Updater implements TaskUpdater {
        private final Execution execution;
        private volatile TaskState lastState;

        Updater(Execution execution) {
            this.execution = execution;
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
            write(() -> store.recordStatus(execution.request.caller(), execution.request.taskId(), status.build()));
            lastState = state;
        }

        @Override
        public void artifact(Artifact artifact) {
            write(() -> store.recordArtifact(execution.request.caller(), execution.request.taskId(), artifact, false, true));
        }

        @Override
        public void appendArtifact(String artifactId, String name, java.util.List<Part> parts, boolean lastChunk) {
            Artifact.Builder chunk = Artifact.newBuilder().setArtifactId(artifactId).addAllParts(parts);
            if (name != null) {
                chunk.setName(name);
            }
            write(() -> store.recordArtifact(execution.request.caller(), execution.request.taskId(), chunk.build(), true, lastChunk));
        }

        @Override
        public void reply(Message message) {
            Message reply = agentMessage(message);
            // The reply is known before the wake-up: a waiter that sees COMPLETED must find it.
            write(() -> store.recordStatus(execution.request.caller(), execution.request.taskId(),
                    TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED).setMessage(reply).build()),
                    () -> execution.reply.complete(reply));
            lastState = TaskState.TASK_STATE_COMPLETED;
        }

        @Override
        public boolean isClosed() {
            return execution.closed;
        }

        void finishQuietly(String reason) {
            try {
                status(TaskState.TASK_STATE_FAILED, reason);
            } catch (TaskClosedException closed) {
                // already terminal (canceled meanwhile): nothing to finish
            } catch (RuntimeException e) {
                LOG.errorf(e, "Could not mark task %s FAILED", execution.request.taskId());
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

        private void write(java.util.function.Supplier<Uni<Void>> change) {
            write(change, () -> {
            });
        }

        /** One committed change; {@code afterCommit} runs before waiters are woken. */
        private void write(java.util.function.Supplier<Uni<Void>> change, Runnable afterCommit) {
            if (execution.closed) {
                throw new TaskClosedException("Task " + execution.request.taskId() + " was canceled");
            }
            try {
                VertxContextSupport.subscribeAndAwait(change);
            } catch (TaskStore.TaskClosedException closed) {
                execution.closed = true;
                throw new TaskClosedException(closed.getMessage());
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
            afterCommit.run();
            signals.fire(execution.taskPk);
        }
    }
}
