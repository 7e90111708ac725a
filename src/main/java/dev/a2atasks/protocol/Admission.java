package dev.a2atasks.protocol;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.auth.CallerResolver;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * What every A2A request passes before its operation runs, on every binding: the protocol
 * version it asks for, then the caller's credentials. The result is the call's {@link CallContext}.
 */
@ApplicationScoped
public class Admission {

    private final ProtocolVersion versions;
    private final CallerResolver callers;

    Admission(ProtocolVersion versions, CallerResolver callers) {
        this.versions = versions;
        this.callers = callers;
    }

    public Uni<CallContext> admit(ServiceParameters request) {
        return Uni.createFrom().deferred(() -> admitAs(request, callers.current()));
    }

    /** The same for a request whose identity is not in the request scope (a router route's). */
    public Uni<CallContext> admit(ServiceParameters request, Uni<SecurityIdentity> identity) {
        return Uni.createFrom().deferred(() -> admitAs(request, callers.of(identity)));
    }

    private Uni<CallContext> admitAs(ServiceParameters request, Uni<Caller> caller) {
        String version = versions.require(request.version());
        return caller.map(c -> new CallContext(c, version, request.binding(), request.extensionUris(), request.deadline()));
    }
}
