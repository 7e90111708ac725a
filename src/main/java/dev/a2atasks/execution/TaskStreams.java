package dev.a2atasks.execution;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.protocol.CallContext;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.RequestValidator;
import dev.a2atasks.task.TaskQueryService;
import dev.a2atasks.task.read.TaskProtos;
import dev.a2atasks.task.read.TaskReads;
import dev.a2atasks.metrics.ServiceMetrics;
import dev.a2atasks.task.store.ProtoJsonColumns;
import dev.a2atasks.task.store.TaskEventEntity;
import dev.a2atasks.task.store.TaskStates;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The streams of SendStreamingMessage and SubscribeToTask, read from PostgreSQL: first the task
 * as it is (a snapshot taken under a share lock, so it matches an exact event number), then every
 * event of {@code task_events} after it, in order, until a status update leaves the task terminal
 * or interrupted (spec §11.7). Nothing is sent from memory: a late or reconnecting subscriber
 * sees what an early one saw. A wake-up (in-process) or the poll interval
 * ({@code a2a.stream.poll-interval}) triggers the next read; a cancelled subscription stops it.
 */
@ApplicationScoped
public class TaskStreams {

    private static final int BATCH = 100;

    private final RequestValidator validator;
    private final TaskReads reads;
    private final TaskQueryService queries;
    private final TaskSignals signals;
    private final Vertx vertx;
    private final Duration poll;
    private final ServiceMetrics metrics;

    TaskStreams(RequestValidator validator, TaskReads reads, TaskQueryService queries, TaskSignals signals, Vertx vertx,
            @ConfigProperty(name = "a2a.stream.poll-interval", defaultValue = "1s") Duration poll, ServiceMetrics metrics) {
        this.validator = validator;
        this.reads = reads;
        this.queries = queries;
        this.signals = signals;
        this.vertx = vertx;
        this.poll = poll;
        this.metrics = metrics;
    }

    /** SubscribeToTask: the caller's task that is not terminal, followed live. */
    public Multi<StreamResponse> subscribe(CallContext call, SubscribeToTaskRequest request) {
        String id = validator.taskId(request.getTenant(), request.getId());
        if (!request.getTenant().isEmpty() && !request.getTenant().equals(call.caller().tenant())) {
            return Multi.createFrom().failure(new A2AException.TaskNotFound(id));
        }
        return follow(call.caller(), request.getTenant(), id, OptionalInt.empty(), true, ANY_RUN);
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
        return snapshot(caller, tenant, taskId, historyLength).onItem().transformToMulti(snapshot -> {
            if (TaskStates.isTerminal(snapshot.state()) && refuseTerminal) {
                return Multi.createFrom().failure(A2AException.UnsupportedOperation.taskIsTerminal("SubscribeToTask", taskId,
                        snapshot.state()));
            }
            if (TaskStates.isTerminal(snapshot.state()) || (TaskStates.isSettled(snapshot.state())
                    && endsTurnOf(snapshot.runInputSeq(), inputSeq))) {
                return Multi.createFrom().item(snapshot.first());
            }
            Multi<StreamResponse> events = Multi.createFrom().<StreamResponse>emitter(emitter -> new Follower(caller, taskId,
                    snapshot.taskPk(), snapshot.nextEventSeq(), inputSeq, context, emitter).start())
                    .onSubscription().invoke(metrics::subscriberJoined)
                    .onTermination().invoke(metrics::subscriberLeft);
            return Multi.createBy().concatenating().streams(Multi.createFrom().item(snapshot.first()), events);
        });
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

    /** Reads a task's events batch by batch on the subscriber's Vert.x context and emits them. */
    private final class Follower {
        private final Caller caller;
        private final String taskId;
        private final long inputSeq;
        private final Context context;
        private final MultiEmitter<? super StreamResponse> emitter;
        private final TaskWatch watch;
        private long nextSeq;
        private volatile boolean stopped;

        Follower(Caller caller, String taskId, long taskPk, long fromSeq, long inputSeq, Context context,
                MultiEmitter<? super StreamResponse> emitter) {
            this.caller = caller;
            this.taskId = taskId;
            this.nextSeq = fromSeq;
            this.inputSeq = inputSeq;
            this.context = context;
            this.emitter = emitter;
            this.watch = new TaskWatch(signals, taskPk);
        }

        void start() {
            emitter.onTermination(() -> { // the client went away or the stream ended: stop reading
                stopped = true;
                watch.close();
            });
            context.runOnContext(ignored -> read());
        }

        private void read() {
            if (stopped) {
                return;
            }
            watch.arm(); // before the read: a change committed meanwhile wakes the next wait at once
            reads.events(caller, taskId, nextSeq, BATCH).subscribe().with(rows -> {
                for (TaskEventEntity row : rows) {
                    StreamResponse event = ProtoJsonColumns.parse(row.payloadJson, StreamResponse.newBuilder()).build();
                    emitter.emit(event);
                    nextSeq = row.seq + 1;
                    if (closes(event, row.inputSeq, inputSeq)) {
                        emitter.complete();
                        return;
                    }
                }
                if (rows.size() == BATCH) {
                    context.runOnContext(ignored -> read());
                    return;
                }
                watch.next(poll).subscribe().with(ignored -> context.runOnContext(again -> read()));
            }, emitter::fail);
        }
    }
}
