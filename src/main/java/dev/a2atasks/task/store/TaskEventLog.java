package dev.a2atasks.task.store;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

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
 * own transaction (numbered by the task row's {@code next_event_seq}), announced on
 * {@link #EVENTS_CHANNEL} at commit, and turned into the outbox rows the task's webhooks are owed
 * ({@link EventOutbox}). Streams and webhooks read these rows; nothing else tells them a task changed.
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

    /**
     * The event row and its announcement in one statement (one round trip): NOTIFY is
     * transactional, delivered on commit, never for a rolled-back change, and collapsed with
     * identical ones of the same transaction. Small by design: subscribers read the rows. The
     * statement goes through Hibernate as a mutation, whose plan is cached by its text: a native
     * SELECT was cached per call (Hibernate Reactive's result mapping has no equality), so the
     * plan cache filled with copies and each lookup compared them, 15% of the service's CPU.
     */
    private static final String EVENT = """
            INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload, created_at, input_seq)
            %s
            RETURNING seq""";
    private static final String ANNOUNCED = "SELECT CAST(pg_notify('" + EVENTS_CHANNEL + "', :taskKey) AS text) FROM event";
    static final String INSERT_EVENT = "WITH event AS (" + EVENT.formatted(
            "VALUES (:tenant, :owner, :taskId, :seq, :kind, CAST(CAST(:payload AS text) AS jsonb), :createdAt, :inputSeq)") + ")\n"
            + ANNOUNCED;

    /** Records an event of a locked task ({@code inputSeq}: the user message its run answers, if any). */
    Uni<Void> record(TaskEntity task, String kind, StreamResponse event, Long inputSeq) {
        return write(task, INSERT_EVENT, Map.of("payload", ProtoJsonColumns.print(event)), kind, inputSeq);
    }

    /**
     * A change of a task, its event and the announcement as one statement: {@code change} is a
     * data-modifying statement returning one row with a boolean {@code created}, and the event's
     * payload is {@code :ifCreated} or {@code :otherwise} as it says. See {@link #recordWith}.
     */
    static String withEvent(String change) {
        return "WITH change AS (" + change + "),\nevent AS (" + EVENT.formatted("""
                SELECT :tenant, :owner, :taskId, :seq, :kind,
                       CAST(CAST(CASE WHEN change.created THEN :ifCreated ELSE :otherwise END AS text) AS jsonb), :createdAt, :inputSeq
                FROM change""") + ")\n" + ANNOUNCED;
    }

    /**
     * Records an event of a locked task together with the change it describes, in one statement
     * made by {@link #withEvent}: the event says {@code ifCreated} when the change created its row
     * (an artifact chunk that created the artifact is its start), else {@code otherwise}.
     */
    Uni<Void> recordWith(TaskEntity task, String kind, String sql, Map<String, Object> changeParameters, StreamResponse ifCreated,
            StreamResponse otherwise, Long inputSeq) {
        Map<String, Object> parameters = new HashMap<>(changeParameters);
        parameters.put("ifCreated", ProtoJsonColumns.print(ifCreated));
        parameters.put("otherwise", ProtoJsonColumns.print(otherwise));
        return write(task, sql, parameters, kind, inputSeq);
    }

    private Uni<Void> write(TaskEntity task, String sql, Map<String, Object> parameters, String kind, Long inputSeq) {
        long seq = task.nextEventSeq;
        task.nextEventSeq = seq + 1;
        return Panache.getSession().chain(session -> {
            var statement = session.createNativeQuery(sql)
                    .setParameter("tenant", task.tenant)
                    .setParameter("owner", task.owner)
                    .setParameter("taskId", task.id)
                    .setParameter("seq", seq)
                    .setParameter("kind", kind)
                    .setParameter("createdAt", OffsetDateTime.now(ZoneOffset.UTC))
                    .setParameter("inputSeq", inputSeq)
                    .setParameter("taskKey", Long.toString(task.pk));
            parameters.forEach(statement::setParameter);
            return statement.executeUpdate();
        })
                // A task that never had a webhook owes none: no outbox statement (migration V11).
                .chain(() -> task.pushRegistered ? outbox.enqueue(task, seq) : Uni.createFrom().voidItem());
    }
}
