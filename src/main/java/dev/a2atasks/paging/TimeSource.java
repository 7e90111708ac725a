package dev.a2atasks.paging;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

/** The clock token expiry is judged by; a bean so tests can move time instead of waiting. */
@ApplicationScoped
public class TimeSource {
    public Instant now() {
        return Instant.now();
    }
}
