package dev.a2atasks.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.a2atasks.jobs.PeriodicJob;
import dev.a2atasks.agent.AgentExecutor;
import dev.a2atasks.agent.AgentRequest;
import dev.a2atasks.agent.TaskUpdater;
import dev.a2atasks.db.Instance;
import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.task.store.Lease;
import dev.a2atasks.task.store.Run;
import dev.a2atasks.task.store.RunLeases;
import dev.a2atasks.task.store.RunWrites;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Runs the {@link AgentExecutor}, one run per user message, on a bounded pool of worker threads
 * ({@code a2a.agent.max-concurrency}). A run is what the store handed out ({@link Run}):
 * a fencing token that owns the task, with a lease (this process, {@code a2a.agent.lease})
 * renewed every third of it. Every write of the run carries the token, so a run that was canceled,
 * taken over or has ended its turn cannot write; at most one run owns a task at any time, on any
 * replica. A run ends its turn with a terminal or interrupted state (the lease ends with it); an
 * agent that returns without one, or throws, leaves the task FAILED, never WORKING. When a turn
 * ends waiting for input and a message was queued meanwhile, the store hands the next run over in
 * the same transaction and it runs here next, on the same worker. If this process dies, the
 * {@link LeaseSweeper} of any replica fails its working tasks once their leases expire; if it is
 * stopped (SIGTERM), its running agents are interrupted and their tasks marked FAILED at once, with
 * the reason, while the database pools are still open.
 */
@ApplicationScoped
public class AgentRunner {

    private static final Logger LOG = Logger.getLogger(AgentRunner.class);

    private final AgentExecutor agent;
    private final RunWrites runs;
    private final RunLeases leases;
    private final TaskSignals signals;
    private final ThreadPoolExecutor workers;
    private final Map<Long, Execution> running = new ConcurrentHashMap<>();
    private final Lease lease;
    private final Duration writeTimeout;
    private final PeriodicJob renewal;
    /** Set when the service stops: an agent interrupted from then on was stopped, it did not fail. */
    private volatile boolean stopping;

    /** Runs admitted here and not yet ended (queued or running), and the bytes of their input messages. */
    private final AtomicInteger held = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong heldBytes = new java.util.concurrent.atomic.AtomicLong();
    private final int maxQueued;
    private final long maxQueuedBytes;

    AgentRunner(AgentExecutor agent, RunWrites runs, RunLeases leases, TaskSignals signals, Instance instance,
            @ConfigProperty(name = "a2a.agent.max-concurrency", defaultValue = "32") int maxConcurrency,
            @ConfigProperty(name = "a2a.agent.lease", defaultValue = "30s") Duration leaseDuration,
            @ConfigProperty(name = "a2a.agent.write-timeout", defaultValue = "20s") Duration writeTimeout,
            @ConfigProperty(name = "a2a.agent.max-queued", defaultValue = "1000") int maxQueued,
            @ConfigProperty(name = "a2a.agent.max-queued-bytes", defaultValue = "64M") io.quarkus.runtime.configuration.MemorySize maxQueuedBytes) {
        this.maxQueued = maxQueued;
        this.maxQueuedBytes = maxQueuedBytes.asLongValue();
        this.agent = agent;
        this.runs = runs;
        this.leases = leases;
        this.signals = signals;
        this.lease = new Lease(instance.id(), leaseDuration);
        this.writeTimeout = writeTimeout;
        this.renewal = PeriodicJob.every("a2a-lease-renewal", Duration.ofMillis(Math.max(1, leaseDuration.toMillis() / 3)), this::renew);
        AtomicInteger threads = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(maxConcurrency, maxConcurrency, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread thread = new Thread(r, "a2a-agent-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.workers.allowCoreThreadTimeOut(true);
    }

    /**
     * A place among this replica's runs, taken before a message is stored: a message this
     * replica could not run soon is refused before anything is written. Given back when the run
     * ends, or at once when the message starts no run here.
     */
    public final class Admission {
        private final long bytes;
        private final java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();

        private Admission(long bytes) {
            this.bytes = bytes;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                held.decrementAndGet();
                heldBytes.addAndGet(-bytes);
            }
        }
    }

    /**
     * Admits a message of {@code bytes} to this replica's runs, or refuses it as UNAVAILABLE
     * (retry soon, or on another replica) when {@code a2a.agent.max-queued} runs, or
     * {@code a2a.agent.max-queued-bytes} of input, are already held here. A message alone is never
     * refused for its size: the request body limit bounds that.
     */
    public Admission admit(long bytes) {
        int runs = held.incrementAndGet();
        long total = heldBytes.addAndGet(bytes);
        if (runs > maxQueued || (total > maxQueuedBytes && runs > 1)) {
            held.decrementAndGet();
            heldBytes.addAndGet(-bytes);
            throw new A2AException.Unavailable(Duration.ofSeconds(1), "its agent has " + (runs - 1) + " runs to do already");
        }
        return new Admission(bytes);
    }

    /** The lease a run started here gets: this process, for {@code a2a.agent.lease}. */
    public Lease lease() {
        return lease;
    }

    /** The agent's media types, for SendMessage's acceptedOutputModes check. */
    public List<String> outputModes() {
        return agent.outputModes();
    }

    /**
     * One run of the agent. {@code reply} completes when the run ends: with its direct reply, or
     * null; {@code firstUpdate} after its first committed update (or its end), when a stream can
     * tell a direct reply from a task.
     */
    public static final class Execution {
        final long taskPk;
        final Run run;
        final AgentRequest request;
        final CompletableFuture<Message> reply = new CompletableFuture<>();
        final CompletableFuture<Void> firstUpdate = new CompletableFuture<>();
        /**
         * Completes once the run's turn is over here: its settling status committed
         * ({@code settledState} says which), it was stopped, or it returned.
         */
        final CompletableFuture<Void> turnEnded = new CompletableFuture<>();
        /** The run's committed writes so far (a waiter tells the wake-ups they caused from others'). */
        final java.util.concurrent.atomic.AtomicLong commits = new java.util.concurrent.atomic.AtomicLong();
        volatile boolean closed;
        /** The run ended its turn itself (a terminal or interrupted state was committed). */
        volatile boolean settled;
        /** The state the run ended its turn with, once committed; null before, or when it ended otherwise. */
        volatile String settledState;

        Execution(long taskPk, Run run, AgentRequest request) {
            this.taskPk = taskPk;
            this.run = run;
            this.request = request;
        }

        long inputSeq() {
            return run.inputSeq();
        }
    }

    /**
     * Starts the run the store handed out with an accepted message, if any: for that message (with
     * the sender's accepted output modes and extensions) or for one queued before it. Null when
     * there is none to start (the message was queued behind a running turn, or was a retry).
     */
    public Execution start(Caller caller, TaskStore.Accepted accepted, List<String> acceptedOutputModes, List<String> extensions,
            Admission admission) {
        Run run = accepted.start();
        if (run == null) {
            admission.release();
            return null;
        }
        boolean forThisMessage = run.inputSeq() == accepted.inputSeq();
        AgentRequest request = new AgentRequest(caller, accepted.taskId(), accepted.contextId(), run.input(),
                accepted.created() && forThisMessage, forThisMessage ? acceptedOutputModes : List.of(),
                forThisMessage ? extensions : List.of());
        Execution execution = track(new Execution(accepted.taskPk(), run, request));
        workers.execute(() -> {
            try {
                run(execution);
            } finally {
                admission.release();
            }
        });
        return execution;
    }

    /** A client canceled the task (already recorded): stop the run here, if one is going. */
    public void canceled(long taskPk) {
        Execution execution = running.get(taskPk);
        if (execution != null) {
            stop(execution);
        }
    }

    private Execution track(Execution execution) {
        Execution previous = running.put(execution.taskPk, execution);
        if (previous != null && previous != execution) {
            // The store fences the old run out already (its token no longer owns the task); stop it here too.
            stop(previous);
        }
        return execution;
    }

    /** Tells the agent of a run that lost its task to stop; its writes are refused from now on anyway. */
    private void stop(Execution execution) {
        if (execution.closed) {
            return;
        }
        execution.closed = true;
        execution.turnEnded.complete(null);
        CompletableFuture.runAsync(() -> {
            try {
                agent.cancel(execution.request);
            } catch (RuntimeException e) {
                LOG.warnf(e, "The agent's cancel hook failed for task %s", execution.request.taskId());
            }
        });
    }

    /** Runs the execution, then each run the store hands over when a turn ends with messages queued. */
    private void run(Execution first) {
        Execution execution = first;
        while (execution != null) {
            Run next = runOnce(execution);
            if (next == null) {
                return;
            }
            AgentRequest previous = execution.request;
            execution = track(new Execution(execution.taskPk, next, new AgentRequest(previous.caller(), previous.taskId(),
                    previous.contextId(), next.input(), false, List.of(), List.of())));
        }
    }

    /** One turn of the agent; answers the run handed over at its end, or null. */
    private Run runOnce(Execution execution) {
        RunUpdater updater = new RunUpdater(execution, runs, lease, writeTimeout, signals);
        try {
            agent.execute(execution.request, updater);
            if (!execution.settled && !execution.closed) {
                updater.finishQuietly("The agent finished without reporting a result");
            }
        } catch (TaskUpdater.TaskClosedException closed) {
            LOG.debugf("Task %s closed while its agent ran", execution.request.taskId());
        } catch (Throwable failure) {
            if (stopping && interruption(failure)) {
                // Not the agent's fault, and nothing an operator must act on: said once, no trace.
                // The interrupt is cleared for the task's last write, then restored.
                LOG.infof("The run of task %s was stopped by the service's shutdown; the task is marked FAILED",
                        execution.request.taskId());
                Thread.interrupted();
                if (!execution.settled) {
                    updater.finishQuietly(STOPPED);
                }
                Thread.currentThread().interrupt();
            } else {
                if (failure instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.errorf(failure, "The agent failed on task %s", execution.request.taskId());
                if (!execution.settled) {
                    updater.finishQuietly("The agent failed");
                }
            }
        } finally {
            // A run whose last write did not commit keeps its lease until it expires: the sweeper then
            // fails the task, rather than it staying WORKING with no owner.
            running.remove(execution.taskPk, execution);
            execution.reply.complete(null); // no-op when it replied
            execution.firstUpdate.complete(null);
            execution.turnEnded.complete(null);
            signals.fire(execution.taskPk); // the run is over: no commit of its own may say so
        }
        return updater.handedOver();
    }

    /** Every third of the lease: the runs still going here keep their tasks; a run that lost its task is stopped. */
    private void renew() {
        List<Execution> runs = List.copyOf(running.values());
        if (runs.isEmpty()) {
            return;
        }
        List<RunLeases.Held> held = new ArrayList<>(runs.size());
        for (Execution execution : runs) {
            held.add(new RunLeases.Held(execution.request.caller().subject(), execution.taskPk, execution.run.id()));
        }
        try {
            Set<UUID> kept = leases.renew(lease, held).await().atMost(writeTimeout);
            for (Execution execution : runs) {
                if (!kept.contains(execution.run.id()) && !execution.settled && running.get(execution.taskPk) == execution) {
                    LOG.infof("The run of task %s lost its task (canceled, or taken over after its lease expired); stopping it",
                            execution.request.taskId());
                    stop(execution);
                }
            }
        } catch (Throwable e) {
            if (stopping) {
                LOG.debugf("Lease renewal stopped by the shutdown: %s", e);
            } else {
                LOG.warnf("Could not renew the leases of %d running tasks: %s", runs.size(), e.toString());
            }
        }
    }

    /** The status message of a task whose run the service's shutdown stopped. */
    static final String STOPPED = "The service stopped while the agent worked on this task";

    /** How long a stop waits for the interrupted runs' last writes. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    /** Whether an agent's failure is its thread's interruption (thrown as such, or wrapped). */
    private static boolean interruption(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException) {
                return true;
            }
        }
        return Thread.currentThread().isInterrupted();
    }

    /**
     * At shutdown, before the pools close (ShutdownEvent comes before the beans are destroyed):
     * the running agents are interrupted and given a bounded time to record their tasks FAILED.
     * Runs still queued keep their leases, which the sweeper of a replica fails once they expire.
     */
    void stop(@Observes ShutdownEvent ignored) {
        stopping = true;
        renewal.stop(Duration.ZERO);
        workers.shutdownNow();
        try {
            if (!workers.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.infof("%d agent run(s) did not stop within %d ms; their leases expire and the sweeper fails their tasks",
                        workers.getActiveCount(), STOP_WAIT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @PreDestroy
    void shutdown() {
        renewal.stop(Duration.ZERO);
        workers.shutdownNow();
    }
}
