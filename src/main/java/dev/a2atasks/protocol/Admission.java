package dev.a2atasks.protocol;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.auth.CallerResolver;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * What every A2A request passes before its operation runs, on every binding: the protocol
 * version it asks for, then the caller's credentials.
 */
@ApplicationScoped
public class Admission {

    private final ProtocolVersion versions;
    private final CallerResolver callers;

    Admission(ProtocolVersion versions, CallerResolver callers) {
        this.versions = versions;
        this.callers = callers;
    }

    /** @param requestedVersion the A2A-Version service parameter as received; null when absent */
    public Uni<Caller> admit(String requestedVersion) {
        return Uni.createFrom().deferred(() -> {
            versions.require(requestedVersion);
            return callers.current();
        });
    }
}
