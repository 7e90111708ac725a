package dev.a2atasks.task.store;

import java.time.OffsetDateTime;

import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.PartitionKey;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row of {@code tasks}: the write model. Reads for ListTasks/GetTask go through
 * {@link TaskPageQueries}, which selects only the columns a response needs.
 *
 * <p>JSON columns hold ProtoJSON text; the transformers keep PostgreSQL's {@code jsonb} type on
 * the column while Java sees plain strings.
 */
@Entity
@Table(name = "tasks")
public class TaskEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long pk;

    @Column(nullable = false)
    public String tenant;

    /**
     * The caller's subject. Also the distribution column of a distributed store (Citus, V13), so
     * every UPDATE and DELETE Hibernate writes for this row names it beside the key: the statement
     * then goes to the one node that holds the row instead of to every shard. Never in an
     * UPDATE's SET list (a row keeps its owner; Citus refuses to set a distribution column).
     */
    @PartitionKey
    @Column(nullable = false, updatable = false)
    public String owner;

    @Column(nullable = false)
    public String id;

    @Column(name = "context_id", nullable = false)
    public String contextId;

    /** A {@code TaskState} name, e.g. {@code TASK_STATE_WORKING}. */
    @Column(nullable = false)
    public String state;

    @Column(name = "status_ts", nullable = false)
    public OffsetDateTime statusTimestamp;

    @Column(name = "status_message")
    @ColumnTransformer(read = "status_message::text", write = "?::text::jsonb")
    public String statusMessageJson;

    @Column(name = "metadata")
    @ColumnTransformer(read = "metadata::text", write = "?::text::jsonb")
    public String metadataJson;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    @Column(name = "next_seq", nullable = false)
    public long nextSeq;

    /** Seq the next row of {@code task_events} gets; taken under this row's lock. */
    @Column(name = "next_event_seq", nullable = false)
    public long nextEventSeq;

    /** The process whose agent works on this task, or null; see {@code leaseExpiresAt}. */
    @Column(name = "lease_owner")
    public String leaseOwner;

    /** Until when {@code leaseOwner} holds the task unless it renews; null with it. */
    @Column(name = "lease_expires_at")
    public OffsetDateTime leaseExpiresAt;

    /** The run that owns the task (its fencing token), or null; a run always holds the lease above. */
    @Column(name = "run_id")
    public java.util.UUID runId;

    /** The history seq of the user message the current (or last) run answers; null before the first run. */
    @Column(name = "run_input_seq")
    public Long runInputSeq;

    /** User messages stored while a run was going and not yet handed to a run. */
    @Column(name = "queued_inputs", nullable = false)
    public int queuedInputs;

    /** The mirror source whose copy this task is, or null (a task of this service's own). */
    @Column(name = "mirror_source")
    public String mirrorSource;

    /** The messageId of the user message that created the task (SendMessage without a taskId), or null. */
    @Column(name = "origin_message_id")
    public String originMessageId;

    /**
     * Whether the task has ever had a webhook registration (migration V11): set by the database
     * when one is stored, never by this mapping; an event of a task without one owes no deliveries.
     * A registration also sets it here ({@link #registeredPush}), for the events of its own transaction.
     */
    @Column(name = "push_registered", insertable = false, updatable = false)
    public boolean pushRegistered;

    /** A registration of this locked task was stored in this transaction (the database flag follows by trigger). */
    public void registeredPush() {
        pushRegistered = true;
    }

    /** Whether the task is in a state it never leaves (spec: COMPLETED, FAILED, CANCELED, REJECTED). */
    public boolean isTerminal() {
        return TaskStates.isTerminal(state);
    }
}
