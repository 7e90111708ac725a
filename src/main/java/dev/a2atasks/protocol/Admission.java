package dev.a2atasks.protocol;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.auth.CallerResolver;
import dev.a2atasks.metrics.ServiceMetrics;
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
    private final ServiceMetrics metrics;

    Admission(ProtocolVersion versions, CallerResolver callers, ServiceMetrics metrics) {
        this.versions = versions;
        this.callers = callers;
        this.metrics = metrics;
    }

    public Uni<CallContext> admit(ServiceParameters request) {
        return counted(request, Uni.createFrom().deferred(() -> admitAs(request, callers.current())));
    }

    /** The same for a request whose identity is not in the request scope (a router route's). */
    public Uni<CallContext> admit(ServiceParameters request, Uni<SecurityIdentity> identity) {
        return counted(request, Uni.createFrom().deferred(() -> admitAs(request, callers.of(identity))));
    }

    /** A refusal here (credentials, version) never reaches an operation: it is counted on its own. */
    private Uni<CallContext> counted(ServiceParameters request, Uni<CallContext> admission) {
        return admission.onFailure().invoke(failure -> metrics.refusedAtAdmission(request.binding().wireName(), Failures.kindOf(failure)));
    }

    private Uni<CallContext> admitAs(ServiceParameters request, Uni<Caller> caller) {
        String version = versions.require(request.version());
        return caller.map(c -> new CallContext(c, version, request.binding(), request.extensionUris(), request.deadline()));
    }
}
