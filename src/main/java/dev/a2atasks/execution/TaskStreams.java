package dev.a2atasks.execution;

import java.util.List;
import java.util.OptionalInt;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.RequestValidator;
import dev.a2atasks.task.TaskQueryService;
import dev.a2atasks.task.read.TaskProtos;
import dev.a2atasks.task.read.EventTails;
import dev.a2atasks.metrics.ServiceMetrics;
import dev.a2atasks.task.store.ProtoJsonColumns;
import dev.a2atasks.task.store.TaskStates;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The streams of SendStreamingMessage and SubscribeToTask, read from PostgreSQL: first the task
 * as it is (a snapshot taken under a share lock, so it matches an exact event number), then every
 * event of {@code task_events} after it, in order, until a status update leaves the task terminal
 * or interrupted (spec §11.7). Nothing is sent from memory: a late or reconnecting subscriber
 * sees what an early one saw. A wake-up (a commit here, or another replica's NOTIFY) triggers
 * the next read, or, without one, {@link TaskSignals#reReadAfter}; a cancelled subscription stops it.
 */
@ApplicationScoped
public class TaskStreams {

    private static final int BATCH = 100;

    private final RequestValidator validator;
    private final EventTails events;
    private final TaskQueryService queries;
    private final TaskSignals signals;
    private final Vertx vertx;
    private final ServiceMetrics metrics;

    TaskStreams(RequestValidator validator, EventTails events, TaskQueryService queries, TaskSignals signals, Vertx vertx,
            ServiceMetrics metrics) {
        this.validator = validator;
        this.events = events;
        this.queries = queries;
        this.signals = signals;
        this.vertx = vertx;
        this.metrics = metrics;
    }

    /** SubscribeToTask: the caller's task that is not terminal, followed live. */
    public Multi<StreamResponse> subscribe(Caller caller, SubscribeToTaskRequest request) {
        String id = validator.taskId(request.getTenant(), request.getId());
        if (!request.getTenant().isEmpty() && !request.getTenant().equals(caller.tenant())) {
            return Multi.createFrom().failure(new A2AException.TaskNotFound(id));
        }
        return follow(caller, request.getTenant(), id, OptionalInt.empty(), true, ANY_RUN);
    }

    /** For {@link #follow}: the stream closes when any run ends its turn (SubscribeToTask). */
    static final long ANY_RUN = -1;

    /**
     * The task's stream from now on, closed by one rule applied to the snapshot and to every event
     * after it: the task is terminal, or interrupted (waiting for its client) by the run that
     * answers history seq {@code inputSeq} or a later one ({@link #ANY_RUN}: by any run). So a
     * stream for a message queued behind a running turn stays open through that turn's end.
     * {@code refuseTerminal}: a terminal task is refused (SubscribeToTask); otherwise its
     * snapshot is the whole stream (a retried streaming send).
     */
    Multi<StreamResponse> follow(Caller caller, String tenant, String taskId, OptionalInt historyLength, boolean refuseTerminal,
            long inputSeq) {
        Context context = Vertx.currentContext() != null ? Vertx.currentContext() : vertx.getOrCreateContext();
        return Multi.createFrom().emitter(emitter -> new Follower(caller, tenant, taskId, historyLength, refuseTerminal, inputSeq,
                context, emitter, null).start());
    }

    /**
     * The stream of a task a streaming send just created, from its creation: first the task as it
     * was stored (SUBMITTED, no event yet), then every event from the first. No snapshot is read,
     * so the stream carries every update of the run however quickly the agent made them (a
     * snapshot read after them would hold them instead, and the stream be one terminal Task).
     */
    Multi<StreamResponse> followFromCreation(Caller caller, String tenant, TaskStore.Accepted created, OptionalInt historyLength) {
        Task submitted = created.asSubmitted(historyLength.isEmpty() || historyLength.getAsInt() > 0);
        Snapshot snapshot = new Snapshot(created.taskPk(), 0, TaskState.TASK_STATE_SUBMITTED.name(), created.inputSeq(),
                StreamResponse.newBuilder().setTask(submitted).build());
        Context context = Vertx.currentContext() != null ? Vertx.currentContext() : vertx.getOrCreateContext();
        return Multi.createFrom().emitter(emitter -> new Follower(caller, tenant, created.taskId(), historyLength, false,
                created.inputSeq(), context, emitter, snapshot).start());
    }

    private record Snapshot(long taskPk, long nextEventSeq, String state, Long runInputSeq, StreamResponse first) {
    }

    /** The task and the number of the next event, read together while writers wait. */
    private Uni<Snapshot> snapshot(Caller caller, String tenant, String taskId, OptionalInt historyLength) {
        return Panache.withTransaction(() -> queries.snapshot(caller, new GetTaskParams(tenant, taskId, historyLength, List.of())))
                .map(read -> new Snapshot(read.row().pk, read.row().nextEventSeq, read.row().state, read.row().runInputSeq,
                        StreamResponse.newBuilder().setTask(TaskProtos.task(read.task())).build()));
    }

    /** Whether an interruption by the run answering {@code runInputSeq} (null: unknown) ends a stream waiting for {@code inputSeq}. */
    static boolean endsTurnOf(Long runInputSeq, long inputSeq) {
        return runInputSeq == null || runInputSeq >= inputSeq;
    }

    /** Whether this event ends a stream waiting for the run of {@code inputSeq}: see {@link #follow}. */
    static boolean closes(StreamResponse event, Long eventInputSeq, long inputSeq) {
        if (!event.hasStatusUpdate()) {
            return false;
        }
        String state = event.getStatusUpdate().getStatus().getState().name();
        return TaskStates.isTerminal(state) || (TaskStates.isSettled(state) && endsTurnOf(eventInputSeq, inputSeq));
    }

    /**
     * One stream: the snapshot, then the task's events read batch by batch on the subscriber's
     * Vert.x context. The snapshot is handed on and not kept (it can be megabytes, and the stream
     * can stay open for hours); only the numbers the reads need are.
     */
    private final class Follower {
        private final Caller caller;
        private final String tenant;
        private final String taskId;
        private final OptionalInt historyLength;
        private final boolean refuseTerminal;
        private final long inputSeq;
        private final Context context;
        private final MultiEmitter<? super StreamResponse> emitter;
        /** The snapshot when it is known without a read (a task just created); null: read it. */
        private final Snapshot known;
        private volatile Cancellable snapshotRead;
        private volatile TaskWatch watch;
        private volatile boolean stopped;
        private long nextSeq;

        Follower(Caller caller, String tenant, String taskId, OptionalInt historyLength, boolean refuseTerminal, long inputSeq,
                Context context, MultiEmitter<? super StreamResponse> emitter, Snapshot known) {
            this.caller = caller;
            this.tenant = tenant;
            this.taskId = taskId;
            this.historyLength = historyLength;
            this.refuseTerminal = refuseTerminal;
            this.inputSeq = inputSeq;
            this.context = context;
            this.emitter = emitter;
            this.known = known;
        }

        void start() {
            emitter.onTermination(this::stop); // the client went away or the stream ended: stop reading
            if (known != null) {
                begin(known);
                return;
            }
            snapshotRead = snapshot(caller, tenant, taskId, historyLength).subscribe().with(this::begin, emitter::fail);
        }

        private void begin(Snapshot snapshot) {
            if (stopped) {
                return;
            }
            if (TaskStates.isTerminal(snapshot.state()) && refuseTerminal) {
                emitter.fail(A2AException.UnsupportedOperation.taskIsTerminal("SubscribeToTask", taskId, snapshot.state()));
                return;
            }
            boolean last = TaskStates.isTerminal(snapshot.state())
                    || (TaskStates.isSettled(snapshot.state()) && endsTurnOf(snapshot.runInputSeq(), inputSeq));
            nextSeq = snapshot.nextEventSeq();
            long taskPk = snapshot.taskPk();
            emitter.emit(snapshot.first());
            if (last) {
                emitter.complete();
                return;
            }
            synchronized (this) {
                if (stopped) {
                    return;
                }
                watch = new TaskWatch(signals, taskPk);
                metrics.subscriberJoined();
            }
            context.runOnContext(ignored -> read());
        }

        private synchronized void stop() {
            stopped = true;
            Cancellable read = snapshotRead;
            if (read != null) {
                read.cancel();
            }
            if (watch != null) {
                watch.close();
                metrics.subscriberLeft();
                watch = null;
            }
        }

        private void read() {
            TaskWatch watching = watch;
            if (stopped || watching == null) {
                return;
            }
            watching.arm(); // before the read: a change committed meanwhile wakes the next wait at once
            events.from(caller, taskId, nextSeq, BATCH).subscribe().with(rows -> {
                for (EventTails.Event row : rows) {
                    StreamResponse event = ProtoJsonColumns.parse(row.payloadJson(), StreamResponse.newBuilder()).build();
                    emitter.emit(event);
                    nextSeq = row.seq() + 1;
                    if (closes(event, row.inputSeq(), inputSeq)) {
                        emitter.complete();
                        return;
                    }
                }
                if (rows.size() == BATCH) {
                    context.runOnContext(ignored -> read());
                    return;
                }
                watching.next(signals.reReadAfter()).subscribe().with(ignored -> context.runOnContext(again -> read()));
            }, emitter::fail);
        }
    }
}
