package dev.a2atasks.push;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.DatabaseConfig;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.task.store.EventOutbox;
import dev.a2atasks.task.store.TaskEntity;
import dev.a2atasks.task.store.TaskRows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Webhook registrations as stored: written under the task's row lock (the same lock every task
 * write takes, so a registration and the events it covers are ordered), read within the caller's
 * scope only, and turned into outbox rows in the transaction of each event they cover.
 */
@ApplicationScoped
public class PushStore implements EventOutbox {

    /** The PostgreSQL channel on which a commit that owes deliveries is announced (no payload). */
    public static final String OUTBOX_CHANNEL = EventOutbox.CHANNEL;

    /** A CDI event: a NOTIFY on {@link #OUTBOX_CHANNEL} arrived (some commit owes deliveries). */
    public record OutboxNotice() {
    }

    /** One PostgreSQL: an event's outbox rows and their NOTIFY in one statement. Citus: apart ({@link #OWED_ROWS}). */
    private final boolean oneStatement;

    PushStore(DatabaseConfig database) {
        this.oneStatement = database.distribution() != DatabaseConfig.Distribution.CITUS;
    }

    /**
     * Stores a registration of the caller's task, replacing one with the same id. A task holds at
     * most {@code maxPerTask}; another caller's task is TaskNotFound.
     */
    @WithTransaction
    public Uni<PushConfigEntity> save(Caller owner, PushConfigEntity config, int maxPerTask) {
        return TaskRows.lockTask(owner, config.taskId).chain(task -> saveLocked(task, config, maxPerTask));
    }

    /** The same, inside a transaction that already holds the task's lock (SendMessage's). */
    Uni<PushConfigEntity> saveLocked(TaskEntity task, PushConfigEntity config, int maxPerTask) {
        PushConfigEntity.Key key = new PushConfigEntity.Key(config.tenant, config.owner, config.taskId, config.id);
        return PushConfigEntity.<PushConfigEntity>findById(key).chain(existing -> {
            if (existing != null) {
                existing.url = config.url;
                existing.authScheme = config.authScheme;
                existing.tokenSealed = config.tokenSealed;
                existing.credentialsSealed = config.credentialsSealed;
                existing.sealedWith = config.sealedWith;
                return Uni.createFrom().item(existing);
            }
            return PushConfigEntity.count("tenant = ?1 and owner = ?2 and taskId = ?3", config.tenant, config.owner, config.taskId)
                    .chain(count -> {
                        if (count >= maxPerTask) {
                            return Uni.createFrom().failure(A2AException.invalidParam("taskId",
                                    "task " + config.taskId + " already has " + count + " push notification configs, the most a task may have"));
                        }
                        task.registeredPush(); // this transaction's later events owe it (the database flag follows by trigger)
                        return config.<PushConfigEntity>persist();
                    });
        });
    }

    /** One registration of the caller's task; TaskNotFound for the task, or for the registration. */
    @WithSession
    public Uni<PushConfigEntity> find(Caller owner, String taskId, String id) {
        return PushConfigEntity.<PushConfigEntity>findById(new PushConfigEntity.Key(owner.tenant(), owner.subject(), taskId, id))
                .chain(config -> config != null ? Uni.createFrom().item(config)
                        : taskExists(owner, taskId).map(exists -> {
                            throw exists ? A2AException.TaskNotFound.pushConfig(taskId, id) : new A2AException.TaskNotFound(taskId);
                        }));
    }

    /**
     * Up to {@code limit} registrations of the caller's task in id order, after {@code afterId}
     * (null: from the first). A keyset on the primary key: one index range per page.
     */
    @WithSession
    public Uni<List<PushConfigEntity>> page(Caller owner, String taskId, String afterId, int limit) {
        return taskExists(owner, taskId).chain(exists -> {
            if (!exists) {
                return Uni.createFrom().failure(new A2AException.TaskNotFound(taskId));
            }
            return (afterId == null
                    ? PushConfigEntity.<PushConfigEntity>find("tenant = ?1 and owner = ?2 and taskId = ?3 order by id",
                            owner.tenant(), owner.subject(), taskId)
                    : PushConfigEntity.<PushConfigEntity>find("tenant = ?1 and owner = ?2 and taskId = ?3 and id > ?4 order by id",
                            owner.tenant(), owner.subject(), taskId, afterId))
                    .page(0, limit).list();
        });
    }

    /**
     * Deletes a registration of the caller's task, with every delivery still owed to it (the
     * outbox rows go with it, by foreign key). Idempotent; another caller's task is TaskNotFound.
     */
    @WithTransaction
    public Uni<Void> delete(Caller owner, String taskId, String id) {
        // The task's row lock first, like every change of a task: an event being recorded meanwhile owes
        // a delivery to this registration (an outbox row referencing it), which this delete must not
        // pull from under its insert.
        return TaskRows.lockTask(owner, taskId).chain(task -> PushConfigEntity.delete(
                "tenant = ?1 and owner = ?2 and taskId = ?3 and id = ?4", owner.tenant(), owner.subject(), taskId, id))
                .replaceWithVoid();
    }

    private static Uni<Boolean> taskExists(Caller owner, String taskId) {
        return TaskEntity.count("tenant = ?1 and owner = ?2 and id = ?3", owner.tenant(), owner.subject(), taskId).map(n -> n > 0);
    }

    /**
     * One outbox row per registration of the task for the event just recorded, in the event's
     * transaction: an event is owed to exactly the registrations that existed when it committed.
     * One statement, whatever the number of registrations: the rows, and the NOTIFY on
     * {@link #OUTBOX_CHANNEL} when there are any (a plain SQL statement: an HQL insert-select was
     * translated again at every call).
     */
    private static final String OWED = EventOutbox.owedRows("?1", "?2", "?3", "?4", "?5", "", "");
    static final String ENQUEUE = "WITH owed AS (\n" + OWED
            + "\n    RETURNING 1)\nSELECT CAST(pg_notify('" + OUTBOX_CHANNEL + "', '') AS text) FROM (SELECT 1 FROM owed LIMIT 1) AS any_owed";

    /**
     * Citus: the outbox rows alone (an INSERT ... SELECT within the owner's node, a router
     * statement), then, when there were any, the NOTIFY as a statement of its own on the coordinator
     * (as {@code TaskEventLog.EVENT_ROW} and its announcement).
     */
    static final String OWED_ROWS = OWED;
    /** Citus: {@link #OWED_ROWS}' announcement. */
    static final String ANNOUNCE_OWED = "SELECT CAST(pg_notify('" + OUTBOX_CHANNEL + "', '') AS text)";

    @Override
    public Uni<Void> enqueue(TaskEntity task, long eventSeq) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        // Flushed first: a registration stored earlier in this transaction must be in the table it reads.
        return Panache.getSession().chain(session -> session.flush().chain(() -> session.createNativeQuery(oneStatement ? ENQUEUE : OWED_ROWS)
                .setParameter(1, task.tenant)
                .setParameter(2, task.owner)
                .setParameter(3, task.id)
                .setParameter(4, eventSeq)
                .setParameter(5, now)
                .executeUpdate()
                .chain(owed -> oneStatement || owed == 0 ? Uni.createFrom().voidItem()
                        : session.createNativeQuery(ANNOUNCE_OWED).executeUpdate().replaceWithVoid())));
    }
}
