package dev.a2atasks.task.store;

import java.io.Serializable;
import java.util.Objects;

import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.PartitionKey;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** A row of {@code artifacts}: one output of a task, keyed by (task, artifact id), ordered by {@code ord}. */
@Entity
@Table(name = "artifacts")
@IdClass(ArtifactEntity.Key.class)
public class ArtifactEntity extends PanacheEntityBase {

    @Id
    @Column(name = "task_pk")
    public Long taskPk;

    @Id
    @Column(name = "artifact_id")
    public String artifactId;

    /** The task's owner (V13): the table's distribution column on a distributed store; see {@link TaskEntity#owner}. */
    @PartitionKey
    @Column(nullable = false, updatable = false)
    public String owner;

    @Column(nullable = false)
    public int ord;

    public String name;

    public String description;

    @Column(name = "parts", nullable = false)
    @ColumnTransformer(read = "parts::text", write = "?::text::jsonb")
    public String partsJson;

    @Column(name = "metadata")
    @ColumnTransformer(read = "metadata::text", write = "?::text::jsonb")
    public String metadataJson;

    @Column(name = "extensions")
    @ColumnTransformer(read = "extensions::text", write = "?::text::jsonb")
    public String extensionsJson;

    public static class Key implements Serializable {
        public Long taskPk;
        public String artifactId;

        public Key() {
        }

        public Key(Long taskPk, String artifactId) {
            this.taskPk = taskPk;
            this.artifactId = artifactId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(taskPk, k.taskPk) && Objects.equals(artifactId, k.artifactId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(taskPk, artifactId);
        }
    }
}
