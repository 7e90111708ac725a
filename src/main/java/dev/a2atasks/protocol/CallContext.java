package dev.a2atasks.protocol;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import dev.a2atasks.auth.Caller;

/**
 * One admitted A2A call, the same for every binding: who is asking (already authenticated), the
 * A2A version it asked for (already checked), the binding it came on, the extensions it
 * requested, and its deadline if it has one. Every operation of {@link A2AOperations} takes one.
 */
public record CallContext(Caller caller, String requestedVersion, Binding binding, Set<String> extensions,
        Optional<Instant> deadline) {
}
