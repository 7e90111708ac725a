package dev.a2atasks.error;

import java.util.ArrayList;
import java.util.List;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The {@code google.rpc} details of an error: an ErrorInfo for A2A errors (spec §10.6, §11.6),
 * a BadRequest naming each invalid field. Built once here; gRPC sends them as they are, the
 * JSON bindings print them as ProtoJSON.
 */
@RegisterForReflection(targets = {
        // Protobuf reaches generated accessors (getFieldViolationsList, ...) reflectively when it
        // packs, prints and parses these; a native image must keep exactly these classes.
        ErrorInfo.class, ErrorInfo.Builder.class,
        BadRequest.class, BadRequest.Builder.class, BadRequest.FieldViolation.class, BadRequest.FieldViolation.Builder.class,
        com.google.rpc.LocalizedMessage.class, com.google.rpc.LocalizedMessage.Builder.class,
        RetryInfo.class, RetryInfo.Builder.class,
        com.google.protobuf.Duration.class, com.google.protobuf.Duration.Builder.class })
public final class ErrorDetails {

    private ErrorDetails() {
    }

    public static List<Any> of(A2AException error) {
        List<Any> details = new ArrayList<>(2);
        if (error.kind().reason() != null) {
            details.add(Any.pack(ErrorInfo.newBuilder()
                    .setReason(error.kind().reason())
                    .setDomain(error.kind().domain())
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
        // The delay as exact as the limiter knows it (to the millisecond); HTTP's Retry-After
        // header, which only takes whole seconds, rounds it up.
        error.retryAfter().ifPresent(delay -> details.add(Any.pack(RetryInfo.newBuilder()
                .setRetryDelay(retryDelay(error, delay))
                .build())));
        return details;
    }

    private static com.google.protobuf.Duration retryDelay(A2AException error, java.time.Duration delay) {
        if (error instanceof A2AException.Unavailable) {
            return com.google.protobuf.Duration.newBuilder().setSeconds(A2AException.Unavailable.seconds(delay)).build();
        }
        long millis = Math.max(1, delay.toMillis());
        return com.google.protobuf.Duration.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000).build();
    }
}
