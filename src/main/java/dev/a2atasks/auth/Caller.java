package dev.a2atasks.auth;

import java.util.Objects;

/**
 * Who is asking: the authorization scope of every query. A caller sees exactly the tasks stored
 * under its tenant and subject.
 */
public record Caller(String tenant, String subject) {
    public Caller {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(subject, "subject");
    }
}
