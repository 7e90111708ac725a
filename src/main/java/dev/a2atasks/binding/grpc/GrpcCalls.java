package dev.a2atasks.binding.grpc;

import java.util.function.Function;

import dev.a2atasks.protocol.Admission;
import dev.a2atasks.protocol.CallContext;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * How every gRPC method of this service reaches the port: admit the call with the parameters
 * {@link CallGuard} read, run its one operation, and let every failure leave as a gRPC status
 * with details ({@link GrpcErrors}). Shared by the A2A service and the extensions' services.
 */
@ApplicationScoped
class GrpcCalls {

    private final Admission admission;
    private final GrpcErrors errors;

    GrpcCalls(Admission admission, GrpcErrors errors) {
        this.admission = admission;
        this.errors = errors;
    }

    <T> Uni<T> call(Function<CallContext, Uni<T>> operation) {
        return admission.admit(CallGuard.PARAMETERS.get()).chain(operation::apply).onFailure().transform(errors::toStatus);
    }

    <T> Multi<T> stream(Function<CallContext, Multi<T>> operation) {
        return admission.admit(CallGuard.PARAMETERS.get()).onItem().transformToMulti(operation::apply)
                .onFailure().transform(errors::toStatus);
    }
}
