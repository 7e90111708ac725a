package dev.a2atasks.task.store;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import dev.a2atasks.metrics.ServiceMetrics;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.proto.v1.TaskStatusUpdateEvent;
import dev.a2atasks.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The event log: every change of a task is recorded as a {@code task_events} row in the change's
 * own transaction (numbered by the task row's {@code next_event_seq}), turned into the outbox rows
 * the task's webhooks are owed ({@link EventOutbox}), and announced on {@link #EVENTS_CHANNEL} at commit. Streams and
 * webhooks read these rows; nothing else tells them a task changed.
 */
@ApplicationScoped
public class TaskEventLog {

    /** The PostgreSQL channel on which committed task events are announced; the payload is the task's row key. */
    public static final String EVENTS_CHANNEL = "a2a_task_events";

    private final ServiceMetrics metrics;
    private final EventOutbox outbox;

    TaskEventLog(ServiceMetrics metrics, EventOutbox outbox) {
        this.metrics = metrics;
        this.outbox = outbox;
    }

    /**
     * Applies a status to a locked task and records the status-update event in the same
     * transaction. The transition is counted here, as it is written: a transaction that then
     * fails to commit (the database failed at commit) was counted too.
     */
    Uni<Void> changeStatus(TaskEntity task, TaskStatus status) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String before = task.state;
        TaskRows.applyStatus(task, status, now);
        metrics.transition(before, task.state);
        Long inputSeq = task.runId != null ? task.runInputSeq : null;
        if (task.isTerminal()) { // nothing left to run: no lease to keep or to sweep
            TaskRows.endRun(task);
        }
        TaskStatus stored = status.toBuilder().setTimestamp(Timestamps.toProto(task.statusTimestamp.toInstant())).build();
        StreamResponse event = StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(task.id).setContextId(task.contextId).setStatus(stored)).build();
        return record(task, "STATUS_UPDATE", event, inputSeq);
    }

    /** Records an event of a locked task ({@code inputSeq}: the user message its run answers, if any). */
    Uni<Void> record(TaskEntity task, String kind, StreamResponse event, Long inputSeq) {
        TaskEventEntity row = new TaskEventEntity();
        row.tenant = task.tenant;
        row.owner = task.owner;
        row.taskId = task.id;
        row.seq = task.nextEventSeq;
        task.nextEventSeq = row.seq + 1;
        row.kind = kind;
        row.payloadJson = ProtoJsonColumns.print(event);
        row.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
        row.inputSeq = inputSeq;
        // NOTIFY is transactional: delivered on commit, never for a rolled-back change, and collapsed
        // with identical ones of the same transaction. Small by design: subscribers read the rows.
        // The push channel is told only when the event is owed to a webhook.
        return row.persist().chain(() -> outbox.enqueue(task, row.seq)).chain(owed -> Panache.getSession().chain(session -> session
                .createNativeQuery(owed > 0
                        ? "SELECT pg_notify('" + EVENTS_CHANNEL + "', ?1), pg_notify('" + outbox.channel() + "', '')"
                        : "SELECT pg_notify('" + EVENTS_CHANNEL + "', ?1)")
                .setParameter(1, Long.toString(task.pk))
                .getSingleResult())).replaceWithVoid();
    }
}
