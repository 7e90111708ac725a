package dev.a2atasks.protocol;

import dev.a2atasks.auth.CallerResolver;
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
        return Uni.createFrom().deferred(() -> {
            String version = versions.require(request.version());
            return callers.current().map(caller -> new CallContext(caller, version, request.binding(), request.extensionUris(),
                    request.deadline()));
        });
    }
}
