package dev.a2atasks.binding.grpc;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorDetails;
import dev.a2atasks.protocol.Failures;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import jakarta.enterprise.context.ApplicationScoped;

/** Maps {@link A2AException} to a gRPC status with {@code google.rpc} details: the gRPC binding's only error mapping. */
@ApplicationScoped
class GrpcErrors {

    private final Failures failures;

    GrpcErrors(Failures failures) {
        this.failures = failures;
    }

    StatusRuntimeException toStatus(Throwable failure) {
        if (failure instanceof StatusRuntimeException already) {
            return already;
        }
        A2AException error = failures.classify(failure, "gRPC");
        return StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
                .setCode(Status.Code.valueOf(error.kind().grpcStatus()).value())
                .setMessage(error.getMessage())
                .addAllDetails(ErrorDetails.of(error))
                .build());
    }
}
