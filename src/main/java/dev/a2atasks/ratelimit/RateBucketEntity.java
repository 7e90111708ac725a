package dev.a2atasks.ratelimit;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** A row of {@code rate_limit_buckets}: one caller's shared bucket for one request class. */
@Entity
@Table(name = "rate_limit_buckets")
@IdClass(RateBucketEntity.Key.class)
public class RateBucketEntity extends PanacheEntityBase {

    @Id
    public String tenant;

    @Id
    public String owner;

    @Id
    @Column(name = "request_class")
    public String requestClass;

    @Column(nullable = false)
    public double tokens;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    /** The primary key: the caller's scope, then the class. */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;

        public String tenant;
        public String owner;
        public String requestClass;

        public Key() {
        }

        public Key(String tenant, String owner, String requestClass) {
            this.tenant = tenant;
            this.owner = owner;
            this.requestClass = requestClass;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && tenant.equals(k.tenant) && owner.equals(k.owner) && requestClass.equals(k.requestClass);
        }

        @Override
        public int hashCode() {
            return Objects.hash(tenant, owner, requestClass);
        }
    }
}
