package dev.a2atasks.push;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/**
 * A row of {@code push_configs}: one webhook registration of one task. The token and the
 * credentials are held sealed (the push package seals and opens them); this class never sees
 * them in clear.
 */
@Entity
@Table(name = "push_configs")
@IdClass(PushConfigEntity.Key.class)
public class PushConfigEntity extends PanacheEntityBase {

    @Id
    public String tenant;

    @Id
    public String owner;

    @Id
    @Column(name = "task_id")
    public String taskId;

    @Id
    public String id;

    @Column(nullable = false)
    public String url;

    @Column(name = "auth_scheme")
    public String authScheme;

    @Column(name = "token_sealed")
    public byte[] tokenSealed;

    @Column(name = "credentials_sealed")
    public byte[] credentialsSealed;

    /** The ring key that sealed the two secrets; null when there are none. */
    @Column(name = "sealed_with")
    public String sealedWith;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;

        public String tenant;
        public String owner;
        public String taskId;
        public String id;

        public Key() {
        }

        public Key(String tenant, String owner, String taskId, String id) {
            this.tenant = tenant;
            this.owner = owner;
            this.taskId = taskId;
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(tenant, k.tenant) && Objects.equals(owner, k.owner)
                    && Objects.equals(taskId, k.taskId) && Objects.equals(id, k.id);
        }

        @Override
        public int hashCode() {
            return Objects.hash(tenant, owner, taskId, id);
        }
    }
}
