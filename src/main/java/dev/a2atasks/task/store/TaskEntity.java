package dev.a2atasks.task.store;

import java.time.OffsetDateTime;

import org.hibernate.annotations.ColumnTransformer;

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

    @Column(nullable = false)
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

    /** Whether the task is in a state it never leaves (spec: COMPLETED, FAILED, CANCELED, REJECTED). */
    public boolean isTerminal() {
        return TaskStates.isTerminal(state);
    }
}
