package dev.a2atasks.task.store;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

import org.hibernate.annotations.ColumnTransformer;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/**
 * A row of {@code task_events}: one status or artifact update as streams send it (a
 * {@code StreamResponse} in ProtoJSON), numbered per task in the order the changes committed.
 */
@Entity
@Table(name = "task_events")
@IdClass(TaskEventEntity.Key.class)
public class TaskEventEntity extends PanacheEntityBase {

    @Id
    public String tenant;

    @Id
    public String owner;

    @Id
    @Column(name = "task_id")
    public String taskId;

    @Id
    public Long seq;

    /** {@code STATUS_UPDATE} or {@code ARTIFACT_UPDATE}. */
    @Column(nullable = false)
    public String kind;

    @Column(name = "payload", nullable = false)
    @ColumnTransformer(read = "payload::text", write = "?::text::jsonb")
    public String payloadJson;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    /** The run_input_seq of the run that wrote the event; null when no run did (a cancel, a sweep). */
    @Column(name = "input_seq")
    public Long inputSeq;

    public static class Key implements Serializable {
        public String tenant;
        public String owner;
        public String taskId;
        public Long seq;

        public Key() {
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(tenant, k.tenant) && Objects.equals(owner, k.owner)
                    && Objects.equals(taskId, k.taskId) && Objects.equals(seq, k.seq);
        }

        @Override
        public int hashCode() {
            return Objects.hash(tenant, owner, taskId, seq);
        }
    }
}
