package dev.a2atasks.binding.rest;

import java.util.function.Function;

import dev.a2atasks.binding.json.HttpServiceParameters;
import dev.a2atasks.protocol.Admission;
import dev.a2atasks.protocol.CallContext;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/** How every HTTP+JSON route reaches the port: admit the request's recorded service parameters, then run its one operation. */
@ApplicationScoped
class RestCalls {

    private final Admission admission;

    RestCalls(Admission admission) {
        this.admission = admission;
    }

    <T> Uni<T> call(RoutingContext request, Function<CallContext, Uni<T>> operation) {
        return admission.admit(HttpServiceParameters.of(request)).chain(operation::apply);
    }
}
