package dev.a2atasks.task.store;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Who runs a task and until when, unless renewed: a process, for {@code duration}. */
public record Lease(String owner, Duration duration) {

    public OffsetDateTime expiry() {
        return OffsetDateTime.now(ZoneOffset.UTC).plus(duration);
    }
}
