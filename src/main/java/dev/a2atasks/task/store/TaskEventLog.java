package dev.a2atasks.task.store;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

import org.hibernate.reactive.mutiny.Mutiny;

import dev.a2atasks.db.DatabaseConfig;
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
    /** One PostgreSQL: an event and its NOTIFY in one statement. Citus: two (see {@link #EVENT_ROW}). */
    private final boolean oneStatement;

    TaskEventLog(ServiceMetrics metrics, EventOutbox outbox, DatabaseConfig database) {
        this.metrics = metrics;
        this.outbox = outbox;
        this.oneStatement = database.distribution() != DatabaseConfig.Distribution.CITUS;
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
    private static final String EVENT_VALUES =
            "VALUES (:tenant, :owner, :taskId, :seq, :kind, CAST(CAST(:payload AS text) AS jsonb), :createdAt, :inputSeq)";
    static final String INSERT_EVENT = "WITH event AS (" + EVENT.formatted(EVENT_VALUES) + ")\n" + ANNOUNCED;

    /**
     * Citus: the event row alone, then its announcement as a statement of its own in the same
     * transaction (delivered at commit all the same). As one statement, Citus would run the CTE as
     * steps through the coordinator; apart, the INSERT is a router statement to the task's node,
     * and the NOTIFY, which reads no table, runs on the coordinator, where the replicas LISTEN.
     */
    static final String EVENT_ROW = EVENT.formatted(EVENT_VALUES);
    /** Citus: {@link #EVENT_ROW}'s announcement. */
    static final String ANNOUNCE = "SELECT CAST(pg_notify('" + EVENTS_CHANNEL + "', :taskKey) AS text)";

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
        // (One PostgreSQL only: on Citus RunWrites records an artifact's change and its event apart.)
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
        Map<String, Object> all = new HashMap<>(parameters);
        all.put("tenant", task.tenant);
        all.put("owner", task.owner);
        all.put("taskId", task.id);
        all.put("seq", seq);
        all.put("kind", kind);
        all.put("createdAt", OffsetDateTime.now(ZoneOffset.UTC));
        all.put("inputSeq", inputSeq);
        String taskKey = Long.toString(task.pk);
        return Panache.getSession().chain(session -> {
            if (oneStatement) {
                all.put("taskKey", taskKey);
                return execute(session, sql, all);
            }
            if (!INSERT_EVENT.equals(sql)) {
                throw new IllegalStateException("on Citus a change and its event are written apart");
            }
            return execute(session, EVENT_ROW, all).chain(() -> execute(session, ANNOUNCE, Map.of("taskKey", taskKey)));
        })
                // A task that never had a webhook owes none: no outbox statement (migration V11).
                .chain(() -> task.pushRegistered ? outbox.enqueue(task, seq) : Uni.createFrom().voidItem());
    }

    /** A native statement run for its effect (a SELECT too: its plan is cached by its text, unlike a native query's). */
    private static Uni<Integer> execute(Mutiny.Session session, String sql, Map<String, Object> parameters) {
        var statement = session.createNativeQuery(sql);
        parameters.forEach(statement::setParameter);
        return statement.executeUpdate();
    }
}
