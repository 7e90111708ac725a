package dev.a2atasks.binding.grpc;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorDetails;
import dev.a2atasks.protocol.Failures;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

/** Maps {@link A2AException} to a gRPC status with {@code google.rpc} details: the gRPC binding's only error mapping. */
final class GrpcErrors {

    private GrpcErrors() {
    }

    static StatusRuntimeException toStatus(Throwable failure) {
        if (failure instanceof StatusRuntimeException already) {
            return already;
        }
        A2AException error = Failures.classify(failure, "gRPC");
        return StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
                .setCode(Status.Code.valueOf(error.kind().grpcStatus()).value())
                .setMessage(error.getMessage())
                .addAllDetails(ErrorDetails.of(error))
                .build());
    }
}
