package dev.a2atasks.binding.grpc;

import org.jboss.logging.Logger;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;

import dev.a2atasks.auth.CallerResolver;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.ErrorKind;
import dev.a2atasks.error.FieldViolation;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;

/** Maps {@link A2AException} to a gRPC status with {@code google.rpc} details: the gRPC binding's only error mapping. */
final class GrpcErrors {

    private static final Logger LOG = Logger.getLogger(GrpcErrors.class);

    private GrpcErrors() {
    }

    static StatusRuntimeException toStatus(Throwable failure) {
        if (failure instanceof StatusRuntimeException already) {
            return already;
        }
        A2AException error = classify(failure);
        com.google.rpc.Status.Builder status = com.google.rpc.Status.newBuilder()
                .setCode(Status.Code.valueOf(error.kind().grpcStatus()).value())
                .setMessage(error.getMessage());
        if (error.kind().reason() != null) {
            status.addDetails(Any.pack(ErrorInfo.newBuilder()
                    .setReason(error.kind().reason())
                    .setDomain(ErrorKind.DOMAIN)
                    .putAllMetadata(error.metadata())
                    .build()));
        }
        if (!error.violations().isEmpty()) {
            BadRequest.Builder badRequest = BadRequest.newBuilder();
            for (FieldViolation v : error.violations()) {
                badRequest.addFieldViolations(BadRequest.FieldViolation.newBuilder()
                        .setField(v.field()).setDescription(v.description()));
            }
            status.addDetails(Any.pack(badRequest.build()));
        }
        return StatusProto.toStatusRuntimeException(status.build());
    }

    private static A2AException classify(Throwable failure) {
        if (failure instanceof A2AException known) {
            return known;
        }
        if (failure instanceof AuthenticationFailedException || failure instanceof UnauthorizedException) {
            return CallerResolver.refusal(failure);
        }
        LOG.error("Unexpected failure in a gRPC call", failure);
        return new A2AException.Internal();
    }
}
