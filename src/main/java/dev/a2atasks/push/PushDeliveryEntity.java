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
 * A row of {@code push_outbox}: one task event still owed to one webhook registration. Written
 * with the event, in its transaction; deleted once delivered; {@code DEAD} once out of attempts.
 * A worker that claims it leases it ({@code leaseOwner} until {@code leaseExpiresAt}).
 */
@Entity
@Table(name = "push_outbox")
@IdClass(PushDeliveryEntity.Key.class)
public class PushDeliveryEntity extends PanacheEntityBase {

    public static final String DEAD = "DEAD";

    @Id
    public String tenant;

    @Id
    public String owner;

    @Id
    @Column(name = "task_id")
    public String taskId;

    @Id
    @Column(name = "config_id")
    public String configId;

    @Id
    @Column(name = "event_seq")
    public Long eventSeq;

    @Column(nullable = false)
    public String state;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "next_attempt_at", nullable = false)
    public OffsetDateTime nextAttemptAt;

    @Column(name = "lease_owner")
    public String leaseOwner;

    @Column(name = "lease_expires_at")
    public OffsetDateTime leaseExpiresAt;

    /** Why the last attempt failed: an HTTP status, a timeout, a refused address; never a secret. */
    @Column(name = "last_error")
    public String lastError;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;

        public String tenant;
        public String owner;
        public String taskId;
        public String configId;
        public Long eventSeq;

        public Key() {
        }

        public Key(String tenant, String owner, String taskId, String configId, Long eventSeq) {
            this.tenant = tenant;
            this.owner = owner;
            this.taskId = taskId;
            this.configId = configId;
            this.eventSeq = eventSeq;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(tenant, k.tenant) && Objects.equals(owner, k.owner)
                    && Objects.equals(taskId, k.taskId) && Objects.equals(configId, k.configId) && Objects.equals(eventSeq, k.eventSeq);
        }

        @Override
        public int hashCode() {
            return Objects.hash(tenant, owner, taskId, configId, eventSeq);
        }
    }
}
