package dev.a2atasks.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;

import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.proto.history.v1.TaskHistoryServiceGrpc;
import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.MetadataUtils;

/**
 * ListTasks over gRPC, and ListTaskMessages (history paging, declared in {@code a2a-extensions}),
 * sending the bearer token and {@code a2a-version: 1.0} with every call.
 */
public final class GrpcTaskListing implements RemoteTasks {

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> VERSION = Metadata.Key.of("a2a-version", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> EXTENSIONS = Metadata.Key.of("a2a-extensions", Metadata.ASCII_STRING_MARSHALLER);

    private final ManagedChannel channel;
    private final Supplier<String> bearerToken;
    private final Duration deadline;
    private final String target;
    private final boolean plaintext;
    private final URI agentCard;

    /**
     * @param target      host:port of the server (the Agent Card's GRPC interface url)
     * @param plaintext   true for a server without TLS (local development)
     * @param bearerToken called for every request, so a caller can refresh tokens
     */
    public GrpcTaskListing(String target, boolean plaintext, Supplier<String> bearerToken, Duration deadline) {
        this(target, plaintext, bearerToken, deadline, null);
    }

    /**
     * @param agentCard the server's Agent Card URL (gRPC has no card of its own to read): where
     *                  {@link #publishedSkew()} looks; null for none
     */
    public GrpcTaskListing(String target, boolean plaintext, Supplier<String> bearerToken, Duration deadline, URI agentCard) {
        ManagedChannelBuilder<?> builder = ManagedChannelBuilder.forTarget(target);
        this.channel = (plaintext ? builder.usePlaintext() : builder.useTransportSecurity()).build();
        this.bearerToken = bearerToken;
        this.deadline = deadline;
        this.target = target;
        this.plaintext = plaintext;
        this.agentCard = agentCard;
    }

    @Override
    public Optional<Duration> publishedSkew() {
        if (agentCard == null) {
            return Optional.empty();
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(deadline).build();
        return AgentCardReader.catchUpSkew(http, agentCard, deadline);
    }

    @Override
    public ListTasksResponse list(ListTasksRequest request) {
        try {
            return A2AServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers(false)))
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .listTasks(request);
        } catch (StatusRuntimeException e) {
            throw failure(e);
        }
    }

    @Override
    public ListTaskMessagesResponse listMessages(ListTaskMessagesRequest request) {
        try {
            return TaskHistoryServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers(true)))
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .listTaskMessages(request);
        } catch (StatusRuntimeException e) {
            throw failure(e).of(HistoryPaging.METHOD);
        }
    }

    private Metadata headers(boolean historyPaging) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + bearerToken.get());
        headers.put(VERSION, "1.0");
        if (historyPaging) {
            headers.put(EXTENSIONS, HistoryPaging.URI);
        }
        return headers;
    }

    /** A status as a ListingException: the fields a BadRequest detail names, and whether any server answered. */
    private ListingException failure(StatusRuntimeException e) {
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
        String code = e.getStatus().getCode().name();
        if (e.getStatus().getCause() != null) { // the transport failed: no server answered this call
            return new ListingException(target, code, TransportFailures.describe(e, !plaintext), fields, e);
        }
        return new ListingException(target, code, String.valueOf(e.getStatus().getDescription()), fields, e);
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
