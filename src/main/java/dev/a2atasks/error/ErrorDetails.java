package dev.a2atasks.error;

import java.util.ArrayList;
import java.util.List;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;

/**
 * The {@code google.rpc} details of an error: an ErrorInfo for A2A errors (spec §10.6, §11.6),
 * a BadRequest naming each invalid field. Built once here; gRPC sends them as they are, the
 * JSON bindings print them as ProtoJSON.
 */
public final class ErrorDetails {

    private ErrorDetails() {
    }

    public static List<Any> of(A2AException error) {
        List<Any> details = new ArrayList<>(2);
        if (error.kind().reason() != null) {
            details.add(Any.pack(ErrorInfo.newBuilder()
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
            details.add(Any.pack(badRequest.build()));
        }
        return details;
    }
}
