package dev.a2atasks.task.store;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;

import dev.a2atasks.db.DatabaseConfig;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.proto.v1.Artifact;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.TaskArtifactUpdateEvent;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.ProjectedFieldName;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * The writes of the agent's runs: a run starting on a locked task (its fencing token and lease),
 * its status and artifact updates, each refused once the run no longer owns the task
 * ({@link TaskClosedException}), and the end of runs whose lease expired (the sweep). The
 * renewal of live leases is {@link RunLeases}'.
 */
@ApplicationScoped
public class RunWrites {

    /** The artifact upsert; {@code %s}: the row's source, then what a conflict changes. */
    private static final String UPSERT = """
            INSERT INTO artifacts AS a (task_pk, owner, artifact_id, ord, name, description, parts, metadata, extensions)
            %s
            ON CONFLICT (task_pk, artifact_id, owner) DO UPDATE SET %s""";
    private static final String ROW_COLUMNS = "CAST(:name AS text), CAST(:description AS text), CAST(CAST(:parts AS text) AS jsonb),"
            + " CAST(CAST(:metadata AS text) AS jsonb), CAST(CAST(:extensions AS text) AS jsonb)";

    /**
     * The artifact upsert: one statement, whatever the size of what is stored; answers whether it
     * created the artifact. Written with its event in one statement ({@link TaskEventLog#recordWith}).
     * An INSERT ... SELECT: the aggregate gives one row (an empty task's order 0).
     */
    static final String UPSERT_ARTIFACT = UPSERT.formatted("""
            SELECT CAST(:taskPk AS bigint), CAST(:owner AS text), CAST(:artifactId AS text), coalesce(max(o.ord) + 1, 0),
                   %s
            FROM artifacts o
            WHERE o.task_pk = :taskPk AND o.owner = :owner""".formatted(ROW_COLUMNS), "%s") + "\nRETURNING (a.xmax = 0) AS created";

    /**
     * Citus: the upsert with its position given ({@link #NEXT_POSITION}, read under the task's row
     * lock), a router statement; its event is written after it ({@link TaskEventLog#EVENT_ROW}).
     */
    static final String UPSERT_ARTIFACT_AT = UPSERT.formatted(
            "VALUES (CAST(:taskPk AS bigint), CAST(:owner AS text), CAST(:artifactId AS text), CAST(:ord AS integer), " + ROW_COLUMNS + ")",
            "%s");
    /** Citus: the next artifact position of a task, and whether the artifact is stored already. */
    static final String NEXT_POSITION = "select coalesce(max(a.ord) + 1, 0), count(case when a.artifactId = :artifactId then 1 end)"
            + " from ArtifactEntity a where a.taskPk = :taskPk and a.owner = :owner";

    private static final String APPENDED = "parts = a.parts || EXCLUDED.parts";
    private static final String REPLACED = "name = EXCLUDED.name, description = EXCLUDED.description, parts = EXCLUDED.parts,"
            + " metadata = EXCLUDED.metadata, extensions = EXCLUDED.extensions";
    /** A chunk, with its event: its parts go after the stored ones; nothing stored is read back into the service. */
    static final String APPEND_ARTIFACT = TaskEventLog.withEvent(UPSERT_ARTIFACT.formatted(APPENDED));
    private static final String REPLACE_ARTIFACT = TaskEventLog.withEvent(UPSERT_ARTIFACT.formatted(REPLACED));
    static final String APPEND_ARTIFACT_AT = UPSERT_ARTIFACT_AT.formatted(APPENDED);
    private static final String REPLACE_ARTIFACT_AT = UPSERT_ARTIFACT_AT.formatted(REPLACED);

    private final TaskEventLog events;
    private final RunStatements statements;

    /** One PostgreSQL: an artifact's change and its event in one statement. Citus: apart (see {@link #UPSERT_ARTIFACT_AT}). */
    private final boolean oneStatement;

    RunWrites(TaskEventLog events, RunStatements statements, DatabaseConfig database) {
        this.events = events;
        this.statements = statements;
        this.oneStatement = database.distribution() != DatabaseConfig.Distribution.CITUS;
    }

    /** A run owns the task and its lease has not expired (an expired one is taken over: its writes are fenced out). */
    static boolean runGoing(TaskEntity task) {
        return task.runId != null && task.leaseExpiresAt != null && task.leaseExpiresAt.isAfter(OffsetDateTime.now(ZoneOffset.UTC));
    }

    /** A new run owns the locked task: a fresh fencing token, the lease, WORKING (an event that names its input). */
    Uni<Run> startRun(TaskEntity task, Lease lease, long inputSeq, Message input) {
        Run run = new Run(UUID.randomUUID(), inputSeq, input);
        task.runId = run.id();
        task.runInputSeq = inputSeq;
        task.queuedInputs--;
        task.leaseOwner = lease.owner();
        task.leaseExpiresAt = lease.expiry();
        return events.changeStatus(task, TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING).build()).replaceWith(run);
    }

    /** The oldest queued message gets a run. Queued messages are the task's last {@code queued_inputs} user messages. */
    Uni<Run> startQueued(TaskEntity task, Lease lease) {
        return MessageEntity.<MessageEntity>find("taskPk = ?1 and owner = ?2 and role = 'ROLE_USER' order by seq desc", task.pk, task.owner)
                .page(task.queuedInputs - 1, 1).firstResult()
                .chain(oldest -> startRun(task, lease, oldest.seq, TaskRows.message(task, oldest)));
    }

    /**
     * A run's status update: applied and recorded as an event; an agent message in it is also
     * appended to the history. A state that ends the run's turn ends its ownership: terminal
     * (queued messages then stay unanswered in the history) or interrupted, where the oldest
     * queued message, if any, gets the next run in this same transaction, leased to {@code lease}:
     * it is returned, for the caller to start. Fails with {@link TaskClosedException} once the
     * task is terminal or no longer this run's (canceled, taken over, turn ended).
     */
    public Uni<Run> recordStatus(RunRef ref, TaskStatus status, Lease lease) {
        // Most updates are one statement (RunStatements); the entities take the rest, and refusals.
        return statements.status(ref, status).chain(done -> done ? Uni.createFrom().nullItem() : recordStatusByEntities(ref, status, lease));
    }

    /** The entity path alone, whatever the statements would do: for RunStatementsTest to compare the two. */
    Uni<Run> recordStatusByEntities(RunRef ref, TaskStatus status, Lease lease) {
        return Panache.withTransaction(() -> recordStatusLocked(ref, status, lease));
    }

    /** See {@link #recordStatusByEntities}. */
    Uni<Void> recordArtifactByEntities(RunRef ref, Artifact artifact, boolean append, boolean lastChunk) {
        return Panache.withTransaction(() -> recordArtifactLocked(ref, artifact, append, lastChunk));
    }

    private Uni<Run> recordStatusLocked(RunRef ref, TaskStatus status, Lease lease) {
        return lockRunTask(ref).chain(task -> (status.hasMessage() ? TaskRows.appendLocked(task, status.getMessage())
                : Uni.createFrom().voidItem()).chain(() -> events.changeStatus(task, status)).chain(() -> {
                    if (!TaskStates.isSettled(task.state)) {
                        return Uni.createFrom().nullItem();
                    }
                    if (task.isTerminal() || task.queuedInputs == 0) {
                        TaskRows.endRun(task);
                        return Uni.createFrom().nullItem();
                    }
                    return startQueued(task, lease);
                }));
    }

    /**
     * A run's artifact update: a new artifact, a replacement ({@code append} false), or more
     * parts for one sent before ({@code append} true; created if it was not). Recorded as an
     * event whose {@code append} is true only when parts were added to a stored artifact, so the
     * first chunk reads as the artifact's start. One SQL statement writes the artifact.
     */
    public Uni<Void> recordArtifact(RunRef ref, Artifact artifact, boolean append, boolean lastChunk) {
        return statements.artifact(ref, artifact, append, lastChunk).chain(done -> done ? Uni.createFrom().voidItem()
                : recordArtifactByEntities(ref, artifact, append, lastChunk));
    }

    private Uni<Void> recordArtifactLocked(RunRef ref, Artifact artifact, boolean append, boolean lastChunk) {
        return lockRunTask(ref).chain(task -> {
            task.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
            Map<String, Object> parameters = new HashMap<>();
            parameters.put("taskPk", task.pk);
            parameters.put("owner", task.owner);
            parameters.put("artifactId", artifact.getArtifactId());
            parameters.put("name", artifact.getName().isEmpty() ? null : artifact.getName());
            parameters.put("description", artifact.getDescription().isEmpty() ? null : artifact.getDescription());
            parameters.put("parts", ProtoJsonColumns.printParts(artifact.getPartsList()));
            parameters.put("metadata", ProtoJsonColumns.printStruct(artifact.getMetadata()));
            parameters.put("extensions", ProtoJsonColumns.printStrings(artifact.getExtensionsList()));
            TaskArtifactUpdateEvent.Builder event = TaskArtifactUpdateEvent.newBuilder()
                    .setTaskId(task.id).setContextId(task.contextId).setArtifact(artifact).setLastChunk(lastChunk);
            // Parts added to a stored artifact are an append; the chunk that created it is its start.
            StreamResponse created = StreamResponse.newBuilder().setArtifactUpdate(event.setAppend(false)).build();
            StreamResponse appended = StreamResponse.newBuilder().setArtifactUpdate(event.setAppend(append)).build();
            if (oneStatement) {
                return events.recordWith(task, "ARTIFACT_UPDATE", append ? APPEND_ARTIFACT : REPLACE_ARTIFACT, parameters, created,
                        appended, task.runInputSeq);
            }
            return Panache.getSession().chain(session -> session.createSelectionQuery(NEXT_POSITION, Object[].class)
                    .setParameter("taskPk", task.pk).setParameter("owner", task.owner).setParameter("artifactId", artifact.getArtifactId())
                    .getSingleResult()
                    .chain(position -> {
                        var upsert = session.createNativeQuery(append ? APPEND_ARTIFACT_AT : REPLACE_ARTIFACT_AT);
                        parameters.forEach(upsert::setParameter);
                        return upsert.setParameter("ord", ((Number) position[0]).intValue()).executeUpdate()
                                .chain(() -> events.record(task, "ARTIFACT_UPDATE", ((Number) position[1]).longValue() == 0 ? created
                                        : appended, task.runInputSeq));
                    }));
        });
    }

    /**
     * Tasks whose lease expired (the process running them died, stalled, or lost the database past
     * the lease), at most {@code limit} per call, in key order: a run that was working ends FAILED
     * with a status message saying so, recorded as an event; a task waiting for its client
     * (INPUT_REQUIRED, AUTH_REQUIRED) only loses the stale lease, it still waits. Returns how many
     * expired leases were handled.
     */
    @WithTransaction
    public Uni<Integer> failExpiredLeases(int limit, String reason) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        // Found across every owner without a lock, then locked one by one by their key, in key
        // order: a store distributed by owner cannot lock rows from a statement that spans its
        // nodes, and each lock names the one node holding the row.
        return TaskEntity.find("select pk, owner from TaskEntity where leaseOwner is not null and leaseExpiresAt < ?1 order by pk", now)
                .page(0, limit).project(ExpiredLease.class).list()
                .chain(candidates -> {
                    Uni<List<TaskEntity>> locked = Uni.createFrom().item(new ArrayList<>());
                    for (ExpiredLease candidate : candidates) {
                        // Locked, not skipped: a replica sweeping the same rows waits (bounded by lock_timeout),
                        // and PostgreSQL re-checks the condition after the wait, so it passes over them.
                        locked = locked.chain(rows -> TaskEntity.<TaskEntity>find(
                                "pk = ?1 and owner = ?2 and leaseOwner is not null and leaseExpiresAt < ?3",
                                candidate.pk(), candidate.owner(), now)
                                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResult()
                                .map(row -> {
                                    if (row != null) {
                                        rows.add(row);
                                    }
                                    return rows;
                                }));
                    }
                    return locked;
                })
                .chain(expired -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (TaskEntity task : expired) {
                        String interrupted = task.leaseOwner;
                        TaskRows.endRun(task);
                        if (TaskStates.isSettled(task.state)) {
                            continue;
                        }
                        Message message = Message.newBuilder().setMessageId(UUID.randomUUID().toString())
                                .setRole(Role.ROLE_AGENT)
                                .addParts(Part.newBuilder().setText(reason))
                                .setMetadata(Struct.newBuilder().putFields("interruptedInstance",
                                        Value.newBuilder().setStringValue(interrupted).build()))
                                .build();
                        chain = chain.chain(() -> TaskRows.appendLocked(task, message)).chain(() -> events.changeStatus(task,
                                TaskStatus.newBuilder().setState(TaskState.TASK_STATE_FAILED).setMessage(message).build()));
                    }
                    return chain.replaceWith(expired.size());
                });
    }

    /** A task whose lease had expired when the sweep looked: its key, to lock it by. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record ExpiredLease(@ProjectedFieldName("pk") Long pk, @ProjectedFieldName("owner") String owner) {
    }

    /** The task locked for a write of this run: refused once it is terminal or owned by no run or another. */
    private static Uni<TaskEntity> lockRunTask(RunRef ref) {
        return TaskRows.lockTask(ref.owner(), ref.taskId())
                .onFailure(A2AException.TaskNotFound.class).transform(gone -> new TaskClosedException(ref.taskId(), "deleted"))
                .invoke(task -> {
                    if (task.isTerminal()) {
                        throw new TaskClosedException(ref.taskId(), task.state);
                    }
                    if (!ref.runId().equals(task.runId)) {
                        throw new TaskClosedException(ref.taskId());
                    }
                });
    }
}
