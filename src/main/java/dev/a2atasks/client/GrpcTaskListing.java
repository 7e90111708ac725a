package dev.a2atasks.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.MetadataUtils;

/** ListTasks over gRPC, sending the bearer token and {@code a2a-version: 1.0} with every call. */
public final class GrpcTaskListing implements TaskListing {

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> VERSION = Metadata.Key.of("a2a-version", Metadata.ASCII_STRING_MARSHALLER);

    private final ManagedChannel channel;
    private final Supplier<String> bearerToken;
    private final Duration deadline;

    /**
     * @param target      host:port of the server (the Agent Card's GRPC interface url)
     * @param plaintext   true for a server without TLS (local development)
     * @param bearerToken called for every request, so a caller can refresh tokens
     */
    public GrpcTaskListing(String target, boolean plaintext, Supplier<String> bearerToken, Duration deadline) {
        ManagedChannelBuilder<?> builder = ManagedChannelBuilder.forTarget(target);
        this.channel = (plaintext ? builder.usePlaintext() : builder.useTransportSecurity()).build();
        this.bearerToken = bearerToken;
        this.deadline = deadline;
    }

    @Override
    public ListTasksResponse list(ListTasksRequest request) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + bearerToken.get());
        headers.put(VERSION, "1.0");
        try {
            return A2AServiceGrpc.newBlockingStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .listTasks(request);
        } catch (StatusRuntimeException e) {
            List<String> fields = new ArrayList<>();
            com.google.rpc.Status status = StatusProto.fromThrowable(e);
            if (status != null) {
                for (var detail : status.getDetailsList()) {
                    if (detail.is(BadRequest.class)) {
                        try {
                            detail.unpack(BadRequest.class).getFieldViolationsList().forEach(v -> fields.add(v.getField()));
                        } catch (InvalidProtocolBufferException ignored) {
                            // a detail we cannot read names no field
                        }
                    }
                }
            }
            throw new ListingException(e.getStatus().getCode().name(), String.valueOf(e.getStatus().getDescription()), fields);
        }
    }

    @Override
    public void close() {
        channel.shutdown();
        try {
            if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
                channel.shutdownNow();
            }
        } catch (InterruptedException e) {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
