package dev.a2atasks.mirror;

import java.time.OffsetDateTime;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A row of {@code mirror_marks}: the newest status timestamp synced from one configured source. */
@Entity
@Table(name = "mirror_marks")
public class MirrorMarkEntity extends PanacheEntityBase {

    @Id
    public String mirror;

    @Column(name = "high_water", nullable = false)
    public OffsetDateTime highWater;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}
