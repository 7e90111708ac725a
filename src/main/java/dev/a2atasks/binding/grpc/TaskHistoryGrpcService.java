package dev.a2atasks.binding.grpc;

import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.protocol.A2AOperations;
import dev.a2atasks.task.TranscriptParams;
import io.quarkus.grpc.GrpcService;
import io.smallrye.mutiny.Uni;

/**
 * The gRPC binding of the history-paging extension, {@code a2atasks.history.v1.TaskHistoryService}:
 * the request goes to the port as it is, the answer comes back as it is.
 */
@GrpcService
public class TaskHistoryGrpcService implements dev.a2atasks.proto.history.v1.TaskHistoryService {

    private final GrpcCalls calls;
    private final A2AOperations port;

    TaskHistoryGrpcService(GrpcCalls calls, A2AOperations port) {
        this.calls = calls;
        this.port = port;
    }

    @Override
    public Uni<ListTaskMessagesResponse> listTaskMessages(ListTaskMessagesRequest request) {
        return calls.call(c -> port.listTaskMessages(c, TranscriptParams.of(request)));
    }
}
