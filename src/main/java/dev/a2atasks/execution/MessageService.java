package dev.a2atasks.execution;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.concurrent.Executor;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.SendMessageResponse;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.push.PushConfigs;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.RequestValidator;
import dev.a2atasks.task.SendMessageCommand;
import dev.a2atasks.task.TaskQueryService;
import dev.a2atasks.task.read.TaskProtos;
import dev.a2atasks.task.read.TaskProgress;
import dev.a2atasks.task.read.TaskView;
import dev.a2atasks.task.store.LockedTaskWrite;
import dev.a2atasks.task.store.TaskStates;
import dev.a2atasks.task.store.TaskStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * SendMessage, SendStreamingMessage and CancelTask, once, for every binding: validate, write through the store (a new
 * task, or a message continuing one), start the agent, and answer as the request asks: at once
 * ({@code returnImmediately}), or when the task is terminal or interrupted, bounded by
 * {@code a2a.agent.blocking-timeout} (then the task as it is).
 */
@ApplicationScoped
public class MessageService {

    private final RequestValidator validator;
    private final TaskStore store;
    private final TaskProgress progress;
    private final TaskQueryService queries;
    private final AgentRunner runner;
    private final TaskSignals signals;
    private final TaskStreams streams;
    private final PushConfigs push;
    private final Duration blockingTimeout;

    MessageService(RequestValidator validator, TaskStore store, TaskProgress progress, TaskQueryService queries, AgentRunner runner,
            TaskSignals signals, TaskStreams streams, PushConfigs push,
            @ConfigProperty(name = "a2a.agent.blocking-timeout", defaultValue = "60s") Duration blockingTimeout) {
        this.validator = validator;
        this.store = store;
        this.progress = progress;
        this.queries = queries;
        this.runner = runner;
        this.signals = signals;
        this.streams = streams;
        this.push = push;
        this.blockingTimeout = blockingTimeout;
    }

    public Uni<SendMessageResponse> send(Caller caller, Set<String> extensions, SendMessageRequest request) {
        Context context = Vertx.currentContext();
        return start(caller, extensions, request).chain(started -> {
            // A task this message created is answered as it was stored, without reading it back.
            Task submitted = started.command().returnImmediately()
                    ? started.task().asSubmitted(started.command().historyLength().orElse(-1) != 0)
                    : null;
            if (submitted != null) {
                return Uni.createFrom().item(SendMessageResponse.newBuilder().setTask(submitted).build());
            }
            Uni<String> settled = started.command().returnImmediately() ? Uni.createFrom().nullItem()
                    : awaitSettled(started, Instant.now().plus(blockingTimeout), onContext(context));
            // A direct reply leaves the task COMPLETED and is known once the agent's run ends, right after
            // that commit: a waiter that sees COMPLETED waits for the run's verdict instead of racing it.
            Function<String, Uni<Message>> reply = state -> !TaskState.TASK_STATE_COMPLETED.name().equals(state)
                    ? Uni.createFrom().nullItem()
                    : directReply(started, context);
            return settled.chain(state -> reply.apply(state)).chain(message -> {
                if (message != null) {
                    return Uni.createFrom().item(SendMessageResponse.newBuilder().setMessage(message).build());
                }
                return queries.getTask(started.caller(), new GetTaskParams(started.command().tenant(), started.task().taskId(),
                        started.command().historyLength(), List.of()))
                        .map(view -> SendMessageResponse.newBuilder().setTask(TaskProtos.task(view)).build());
            });
        });
    }

    /**
     * SendStreamingMessage: the same start, then the task's stream (spec §3.1.2): the task, its
     * status and artifact updates, closed on a terminal or interrupted state of the run answering
     * this message. When that run is here, the stream begins after its first update: a run that
     * answers with a direct reply makes the stream that one Message, as blocking SendMessage
     * returns it. A task the message created streams from its creation (the task SUBMITTED, then
     * every event), so no update is folded into a snapshot; a message to an existing task streams
     * from a snapshot read then.
     */
    public Multi<StreamResponse> sendStreaming(Caller caller, Set<String> extensions, SendMessageRequest request) {
        Context context = Vertx.currentContext();
        return start(caller, extensions, request).onItem().transformToMulti(started -> {
            AgentRunner.Execution execution = started.execution();
            Uni<Message> reply = execution == null ? Uni.createFrom().nullItem()
                    : Uni.createFrom().completionStage(() -> execution.firstUpdate.copy())
                            .ifNoItem().after(blockingTimeout).recoverWithItem((Void) null)
                            .emitOn(onContext(context))
                            .map(ignored -> execution.reply.getNow(null));
            return reply.onItem().transformToMulti(message -> message != null
                    ? Multi.createFrom().item(StreamResponse.newBuilder().setMessage(message).build())
                    : started.task().asSubmitted(false) != null
                            ? streams.followFromCreation(started.caller(), started.command().tenant(), started.task(),
                                    started.command().historyLength())
                            : streams.follow(started.caller(), started.command().tenant(), started.task().taskId(),
                                    started.command().historyLength(), false, started.task().inputSeq()));
        });
    }

    /** The direct reply of the run that answered this message here, if it gave one; null otherwise. */
    private Uni<Message> directReply(Started started, Context context) {
        AgentRunner.Execution execution = started.execution();
        if (execution == null) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().completionStage(() -> execution.reply.copy())
                .ifNoItem().after(blockingTimeout).recoverWithItem((Message) null)
                .emitOn(onContext(context));
    }

    /**
     * A user message validated, stored, and handed to a run; {@code execution} is the run answering
     * it when that run was started here (not when it was queued, or a retry).
     */
    private record Started(Caller caller, SendMessageCommand command, TaskStore.Accepted task, AgentRunner.Execution execution) {
    }

    private Uni<Started> start(Caller caller, Set<String> extensions, SendMessageRequest request) {
        SendMessageCommand command = validator.sendMessage(request);
        if (!command.tenant().isEmpty() && !command.tenant().equals(caller.tenant())) {
            // Writing is never done in a scope other than the caller's; a task there is as unknown as any other.
            return Uni.createFrom().failure(command.taskId() != null ? new A2AException.TaskNotFound(command.taskId())
                    : A2AException.invalidParam("tenant", "tenant must be the caller's own tenant or empty"));
        }
        checkOutputModes(command.acceptedOutputModes());
        if (command.pushConfig() != null && !push.enabled()) {
            throw new A2AException.PushNotificationNotSupported("SendMessage");
        }
        Message message = command.message();
        String taskId = command.taskId() != null ? command.taskId() : UUID.randomUUID().toString();
        // A webhook registered with the message is judged and sealed first, then stored in the
        // message's transaction: the task's first event is already owed to it.
        Uni<LockedTaskWrite> registration = command.pushConfig() == null ? Uni.createFrom().nullItem()
                : push.withMessage(caller, command.pushConfig(), taskId);
        AgentRunner.Admission admission = runner.admit(message.getSerializedSize()); // refused here, nothing is written
        Uni<TaskStore.Accepted> accepted = registration.chain(config -> command.taskId() == null
                ? store.submit(caller, taskId, command.contextId() != null ? command.contextId() : UUID.randomUUID().toString(),
                        message, runner.lease(), config)
                        // A retry of the first message racing the original: the loser answers with the winner's task.
                        .onFailure(TaskStore::isOriginConflict).recoverWithUni(() -> store.originOf(caller, message.getMessageId()))
                : store.continueWith(caller, taskId, command.contextId(), message, runner.lease(), config));
        Uni<Started> started = accepted.onFailure().invoke(admission::release).map(task -> {
            AgentRunner.Execution execution = runner.start(caller, task, command.acceptedOutputModes(), List.copyOf(extensions),
                    admission);
            return new Started(caller, command, task, execution != null && execution.inputSeq() == task.inputSeq() ? execution : null);
        });
        return completedEvenIfAbandoned(started);
    }

    /**
     * A write that runs to its end even when its caller goes away meanwhile: a client that
     * disconnects must not cut a transaction short (Hibernate Reactive would close its session
     * mid-flight), nor leave a committed message whose run was never started (its lease would
     * expire and fail the task). The caller that stays gets the outcome; one that left, nothing.
     */
    private static <T> Uni<T> completedEvenIfAbandoned(Uni<T> write) {
        return Uni.createFrom().emitter(emitter -> write.subscribe().with(emitter::complete, emitter::fail));
    }

    public Uni<TaskView> cancel(Caller caller, CancelTaskRequest request) {
        String id = validator.taskId(request.getTenant(), request.getId());
        if (!request.getTenant().isEmpty() && !request.getTenant().equals(caller.tenant())) {
            return Uni.createFrom().failure(new A2AException.TaskNotFound(id));
        }
        return store.cancel(caller, id).chain(pk -> {
            runner.canceled(pk);
            if (!signals.everyCommitSignalled()) { // else its NOTIFY does
                signals.fire(pk);
            }
            return queries.getTask(caller, new GetTaskParams(request.getTenant(), id, OptionalInt.empty(), List.of()));
        });
    }

    /** Refuses a client that accepts none of the agent's output media types (an empty list accepts all). */
    private void checkOutputModes(List<String> accepted) {
        if (accepted.isEmpty()) {
            return;
        }
        List<String> produced = runner.outputModes();
        for (String mode : accepted) {
            for (String offered : produced) {
                if (matches(mode.trim(), offered)) {
                    return;
                }
            }
        }
        throw new A2AException.ContentTypeNotSupported("None of configuration.acceptedOutputModes is produced by this agent; it produces "
                + String.join(", ", produced));
    }

    private static boolean matches(String accepted, String offered) {
        if (accepted.equals("*/*") || accepted.equalsIgnoreCase(offered)) {
            return true;
        }
        return accepted.endsWith("/*") && offered.regionMatches(true, 0, accepted, 0, accepted.length() - 1);
    }

    /**
     * Waits until the task is terminal, or interrupted by the run answering this message (or a
     * later one), or the deadline passes, and says the state it saw. One watch on the task for the
     * whole wait, armed before each read, so no change between a read and the wait is missed;
     * without a wake-up, re-read as {@link TaskSignals#reReadAfter} says.
     *
     * <p>When the run answering the message is this process's, its turn's end is known here
     * without a read, and a wake-up its own commit caused needs none either: the task is read at
     * the start, then only for a wake-up the run's commits do not explain (a cancel, another
     * replica's write), a timeout, or a turn that ended without saying how.
     */
    private Uni<String> awaitSettled(Started started, Instant deadline, Executor context) {
        TaskWatch watch = new TaskWatch(signals, started.task().taskPk());
        AgentRunner.Execution local = started.execution();
        if (local != null) {
            local.turnEnded.thenRun(watch::wake);
        }
        return awaitSettled(started, watch, deadline, context, true, 0).eventually(watch::close);
    }

    /**
     * One step of the wait. {@code read}: whether the task must be read now. {@code balance}:
     * wake-ups minus the local run's commits as of the last read; a wake-up that leaves it there
     * is the echo of one of those commits (each is signalled exactly once), one that raises it is
     * someone else's change. An echo still in flight can hide another's change only until it
     * arrives, which then raises the balance.
     */
    private Uni<String> awaitSettled(Started started, TaskWatch watch, Instant deadline, Executor context, boolean read,
            long balance) {
        AgentRunner.Execution local = started.execution();
        if (local != null && local.settledState != null) {
            return Uni.createFrom().item(local.settledState);
        }
        watch.arm();
        long now = watch.fires() - (local == null ? 0 : local.commits.get());
        long since = read ? now : balance;
        Duration left = Duration.between(Instant.now(), deadline);
        boolean due = left.isNegative() || left.isZero();
        Uni<String> settled = !read && !due ? Uni.createFrom().nullItem()
                : progress.of(started.caller(), started.task().taskId()).map(found -> found == null ? GONE
                        : TaskStates.isTerminal(found.state()) || due
                                || (TaskStates.isSettled(found.state())
                                        && TaskStreams.endsTurnOf(found.runInputSeq(), started.task().inputSeq()))
                                                ? found.state() : null);
        return settled.chain(state -> {
            if (state != null) {
                return Uni.createFrom().item(state == GONE ? null : state);
            }
            Duration poll = signals.reReadAfter();
            return watch.next(left.compareTo(poll) < 0 ? left : poll)
                    .emitOn(context) // back on the request's Vert.x context: Hibernate Reactive runs only there
                    .chain(signalled -> {
                        boolean echo = signalled && local != null && watch.fires() - local.commits.get() <= since;
                        return awaitSettled(started, watch, deadline, context, !echo, since);
                    });
        });
    }

    /** Said by a read that found no task (deleted meanwhile): the wait ends with no state. */
    private static final String GONE = "";

    private static Executor onContext(Context context) {
        return context == null ? Runnable::run : task -> context.runOnContext(ignored -> task.run());
    }
}
