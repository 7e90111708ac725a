package dev.a2atasks.task;

import java.util.List;
import java.util.Objects;

import dev.a2atasks.error.FieldViolation;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;

/**
 * ListTaskMessages parameters (history-paging extension): the request as the binding decoded it,
 * and what it could not decode (see {@link ListTasksParams}). gRPC has nothing undecodable; the
 * JSON bindings fill both through {@link TextParams}. The validator reports the undecodable values
 * in their fields' places, after the extension was found declared.
 */
public record TranscriptParams(ListTaskMessagesRequest request, List<FieldViolation> undecodable) {

    public TranscriptParams {
        Objects.requireNonNull(request, "request");
        undecodable = List.copyOf(undecodable);
    }

    /** A typed request (gRPC): nothing undecodable. */
    public static TranscriptParams of(ListTaskMessagesRequest request) {
        return new TranscriptParams(request, List.of());
    }
}
