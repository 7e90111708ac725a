package dev.a2atasks.task.store;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.PartitionKey;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** A row of {@code messages}: one message of a task's history, keyed by (task, seq). */
@Entity
@Table(name = "messages")
@IdClass(MessageEntity.Key.class)
public class MessageEntity extends PanacheEntityBase {

    @Id
    @Column(name = "task_pk")
    public Long taskPk;

    @Id
    public Long seq;

    /** The task's owner (V13): the table's distribution column on a distributed store; see {@link TaskEntity#owner}. */
    @PartitionKey
    @Column(nullable = false, updatable = false)
    public String owner;

    @Column(name = "message_id", nullable = false)
    public String messageId;

    /** A {@code Role} name, e.g. {@code ROLE_AGENT}. */
    @Column(nullable = false)
    public String role;

    @Column(name = "parts", nullable = false)
    @ColumnTransformer(read = "parts::text", write = "?::text::jsonb")
    public String partsJson;

    @Column(name = "metadata")
    @ColumnTransformer(read = "metadata::text", write = "?::text::jsonb")
    public String metadataJson;

    @Column(name = "extensions")
    @ColumnTransformer(read = "extensions::text", write = "?::text::jsonb")
    public String extensionsJson;

    @Column(name = "reference_task_ids")
    @ColumnTransformer(read = "reference_task_ids::text", write = "?::text::jsonb")
    public String referenceTaskIdsJson;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    public static class Key implements Serializable {
        public Long taskPk;
        public Long seq;

        public Key() {
        }

        public Key(Long taskPk, Long seq) {
            this.taskPk = taskPk;
            this.seq = seq;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(taskPk, k.taskPk) && Objects.equals(seq, k.seq);
        }

        @Override
        public int hashCode() {
            return Objects.hash(taskPk, seq);
        }
    }
}
