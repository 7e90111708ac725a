package dev.a2atasks.task.store;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;

import dev.a2atasks.db.DatabaseConfig;
import dev.a2atasks.db.PooledStatements;
import dev.a2atasks.metrics.ServiceMetrics;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.TaskArtifactUpdateEvent;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.proto.v1.TaskStatusUpdateEvent;
import dev.a2atasks.time.Timestamps;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A run's status and artifact updates as one statement each, in a transaction of its own: the
 * task row locked, fenced (the run must still own the task, and the task must not be terminal),
 * changed, its message or artifact written, its event recorded and announced. One round trip
 * where the entities take a session's seven (BEGIN, the locking read, the writes, the task's
 * update, COMMIT): the profile of the demo agent's runs showed the service, not the database,
 * holding those transactions open.
 *
 * <p>They write exactly what {@link RunWrites}' entity path writes, for the cases that are most
 * of a run's writes: every artifact update, and every status except one that ends the turn while
 * messages are queued (the next run starts in that transaction). Anything else (and a refusal)
 * changes nothing here and answers {@code false}: the caller then takes the entity path, which
 * decides and explains. For a task with webhook registrations the event's outbox rows are one
 * more CTE of the statement (the push bench's profile: on the entity path, those tasks' updates
 * waited 275 ms each for the event loops at 100 tasks from 8 senders). Pinned by
 * {@code RunStatementsTest} (the same rows as the entity path) and {@code WritePathPlanTest}.
 */
@ApplicationScoped
public class RunStatements {

    /** The task row, locked; the state it had (for the transition's metric). */
    private static final String LOCKED = """
            WITH old AS (
                SELECT pk, state FROM tasks
                WHERE tenant = $1 AND owner = $2 AND id = $3
                FOR UPDATE),
            """;

    /**
     * Changes only the run's own task, while it is not terminal; for a task with webhooks, only
     * while its registrations are the ones this statement's snapshot sees (V12: a registration
     * made or deleted by a transaction whose row lock the statement waited for moved
     * push_changes, and the locked row is compared with the snapshot's). The owner is named
     * beside the key although the key alone finds the row: on a store distributed by owner
     * (Citus) an UPDATE that does not name it is sent to every shard.
     */
    private static final String FENCED = """
                FROM old
                WHERE t.owner = $2 AND t.pk = old.pk AND t.run_id = $4
                  AND t.state NOT IN ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED')
                  AND (NOT t.push_registered
                       OR t.push_changes = (SELECT s.push_changes FROM tasks s WHERE s.tenant = $1 AND s.owner = $2 AND s.id = $3))
            """;

    /**
     * The outbox rows the event owes, for a task that has had a webhook registration (the same
     * rows {@link EventOutbox#enqueue} writes on the entity path), and the worker told at commit.
     * The rows reference the event inserted by the same statement: the foreign keys are checked at
     * its end. {@code at}: the parameter holding the event's time.
     */
    private static String owed(String at) {
        return "owed AS (\n" + EventOutbox.owedRows("$1", "$2", "$3", "task.event_seq", at, ", task", " AND task.push_registered")
                + "\n    RETURNING 1)\n";
    }

    /**
     * The NOTIFY that wakes the delivery workers when the statement owed any delivery (NULL
     * otherwise). Every {@code pg_notify} result here is cast to text: a column of type void cannot
     * be passed between the nodes of a distributed store (Citus), which runs parts of these
     * statements as subplans.
     */
    private static final String TELL_OWED = "(SELECT CAST(pg_notify('" + EventOutbox.CHANNEL + "', '') AS text) FROM owed LIMIT 1) AS owed";

    /**
     * $5 state, $6 status timestamp, $7 status message (JSON or null), $8 1 when that message is
     * appended to the history (else 0), $9 whether the status ends the run's turn (the run then
     * owns the task no more; only without queued messages here), $10-$14 the message's id and
     * JSON columns, $15 the event.
     */
    static final String STATUS = LOCKED + """
            task AS (
                UPDATE tasks AS t
                SET state = $5, status_ts = $6, status_message = CAST(CAST($7 AS text) AS jsonb), updated_at = $6,
                    next_seq = t.next_seq + $8, next_event_seq = t.next_event_seq + 1,
                    run_id = CASE WHEN $9 THEN NULL ELSE t.run_id END,
                    lease_owner = CASE WHEN $9 THEN NULL ELSE t.lease_owner END,
                    lease_expires_at = CASE WHEN $9 THEN NULL ELSE t.lease_expires_at END
            """ + FENCED + """
                  AND (NOT $9 OR t.queued_inputs = 0)
                RETURNING t.pk, t.next_seq - 1 AS message_seq, t.next_event_seq - 1 AS event_seq, t.run_input_seq, old.state AS before,
                    t.push_registered),
            message AS (
                INSERT INTO messages (task_pk, owner, seq, message_id, role, parts, metadata, extensions, reference_task_ids, created_at)
                SELECT pk, $2, message_seq, $10, 'ROLE_AGENT', CAST(CAST($11 AS text) AS jsonb), CAST(CAST($12 AS text) AS jsonb),
                       CAST(CAST($13 AS text) AS jsonb), CAST(CAST($14 AS text) AS jsonb), $6
                FROM task WHERE $8 = 1),
            event AS (
                INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload, created_at, input_seq)
                SELECT $1, $2, $3, event_seq, 'STATUS_UPDATE', CAST(CAST($15 AS text) AS jsonb), $6, run_input_seq FROM task),
            """ + owed("$6") + """
            SELECT before, CAST(pg_notify('%s', CAST(pk AS text)) AS text), %s FROM task""".formatted(TaskEventLog.EVENTS_CHANNEL, TELL_OWED);

    /**
     * $5 now, $6 artifact id, $7 name, $8 description, $9-$11 its JSON columns, $12 the event when
     * the chunk created the artifact, $13 when it was already there.
     */
    private static final String ARTIFACT = LOCKED + """
            task AS (
                UPDATE tasks AS t SET updated_at = $5, next_event_seq = t.next_event_seq + 1
            """ + FENCED + """
                RETURNING t.pk, t.next_event_seq - 1 AS event_seq, t.run_input_seq, t.push_registered),
            change AS (
                INSERT INTO artifacts AS a (task_pk, owner, artifact_id, ord, name, description, parts, metadata, extensions)
                SELECT pk, $2, $6, (SELECT coalesce(max(o.ord) + 1, 0) FROM artifacts o WHERE o.task_pk = task.pk AND o.owner = $2),
                       $7, $8,
                       CAST(CAST($9 AS text) AS jsonb), CAST(CAST($10 AS text) AS jsonb), CAST(CAST($11 AS text) AS jsonb)
                FROM task
                ON CONFLICT (task_pk, artifact_id, owner) DO UPDATE SET %s
                RETURNING (a.xmax = 0) AS created),
            event AS (
                INSERT INTO task_events (tenant, owner, task_id, seq, kind, payload, created_at, input_seq)
                SELECT $1, $2, $3, event_seq, 'ARTIFACT_UPDATE',
                       CAST(CAST(CASE WHEN change.created THEN $12 ELSE $13 END AS text) AS jsonb), $5, run_input_seq
                FROM task, change),
            """ + owed("$5") + """
            SELECT CAST(pg_notify('%s', CAST(pk AS text)) AS text), %s FROM task""";
    /** A chunk: its parts go after the stored ones. */
    static final String APPEND_ARTIFACT = ARTIFACT.formatted("parts = a.parts || EXCLUDED.parts", TaskEventLog.EVENTS_CHANNEL, TELL_OWED);
    private static final String REPLACE_ARTIFACT = ARTIFACT.formatted("name = EXCLUDED.name, description = EXCLUDED.description,"
            + " parts = EXCLUDED.parts, metadata = EXCLUDED.metadata, extensions = EXCLUDED.extensions", TaskEventLog.EVENTS_CHANNEL,
            TELL_OWED);

    private final Pool pool;
    private final ServiceMetrics metrics;
    /**
     * Citus: these statements are not used, every update takes the entity path. Citus runs a
     * data-modifying CTE as a sequence of steps through the coordinator (each INSERT in a WITH is a
     * step of its own, its rows passed as intermediate results), about four times what the entity
     * path's router statements cost there (pgbench, 2026-12-06: 13.8 against 3.4 ms per update).
     */
    private final boolean inUse;

    RunStatements(Pool pool, ServiceMetrics metrics, DatabaseConfig database) {
        this.pool = pool;
        this.metrics = metrics;
        this.inUse = database.distribution() != DatabaseConfig.Distribution.CITUS;
    }

    /** A run's status update in one statement; false when it wrote nothing (the entity path must decide). */
    Uni<Boolean> status(RunRef ref, TaskStatus status) {
        if (!inUse) {
            return Uni.createFrom().item(false);
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        TaskEntity applied = new TaskEntity();
        TaskRows.applyStatus(applied, status, now); // the same state, timestamp and status message the entities would write
        boolean settled = TaskStates.isSettled(applied.state);
        MessageEntity message = status.hasMessage()
                ? TaskRows.toEntity(0, null, 0, status.getMessage().toBuilder().setTaskId(ref.taskId()).setContextId(ref.contextId()).build(), now)
                : new MessageEntity();
        StreamResponse event = StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(ref.taskId()).setContextId(ref.contextId())
                .setStatus(status.toBuilder().setTimestamp(Timestamps.toProto(applied.statusTimestamp.toInstant())))).build();
        return run(STATUS, ref, Arrays.asList(applied.state, applied.statusTimestamp, applied.statusMessageJson,
                status.hasMessage() ? 1L : 0L, settled, message.messageId, message.partsJson, message.metadataJson,
                message.extensionsJson, message.referenceTaskIdsJson, ProtoJsonColumns.print(event)))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return false;
                    }
                    metrics.transition(rows.iterator().next().getString("before"), applied.state);
                    return true;
                });
    }

    /** A run's artifact update in one statement; false when it wrote nothing (the entity path must decide). */
    Uni<Boolean> artifact(RunRef ref, Artifact artifact, boolean append, boolean lastChunk) {
        if (!inUse) {
            return Uni.createFrom().item(false);
        }
        TaskArtifactUpdateEvent.Builder event = TaskArtifactUpdateEvent.newBuilder()
                .setTaskId(ref.taskId()).setContextId(ref.contextId()).setArtifact(artifact).setLastChunk(lastChunk);
        // Parts added to a stored artifact are an append; the chunk that created it is its start.
        String created = ProtoJsonColumns.print(StreamResponse.newBuilder().setArtifactUpdate(event.setAppend(false)).build());
        String appended = ProtoJsonColumns.print(StreamResponse.newBuilder().setArtifactUpdate(event.setAppend(append)).build());
        return run(append ? APPEND_ARTIFACT : REPLACE_ARTIFACT, ref, Arrays.asList(
                OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS), artifact.getArtifactId(),
                artifact.getName().isEmpty() ? null : artifact.getName(),
                artifact.getDescription().isEmpty() ? null : artifact.getDescription(),
                ProtoJsonColumns.printParts(artifact.getPartsList()), ProtoJsonColumns.printStruct(artifact.getMetadata()),
                ProtoJsonColumns.printStrings(artifact.getExtensionsList()), created, appended))
                .map(rows -> rows.size() > 0);
    }

    private Uni<RowSet<Row>> run(String sql, RunRef ref, java.util.List<Object> rest) {
        Object[] arguments = new Object[4 + rest.size()];
        arguments[0] = ref.owner().tenant();
        arguments[1] = ref.owner().subject();
        arguments[2] = ref.taskId();
        arguments[3] = ref.runId();
        for (int i = 0; i < rest.size(); i++) {
            arguments[4 + i] = rest.get(i);
        }
        return PooledStatements.execute(pool, sql, Tuple.from(Arrays.asList(arguments)));
    }
}
