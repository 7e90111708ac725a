package dev.a2atasks.support;

import java.net.URL;
import java.util.concurrent.TimeUnit;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.MetadataUtils;

/** A real gRPC client over loopback to the service under test (same port as HTTP). */
public final class GrpcChannels implements AutoCloseable {

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> A2A_VERSION = Metadata.Key.of("a2a-version", Metadata.ASCII_STRING_MARSHALLER);
    private final ManagedChannel channel;

    public GrpcChannels(URL httpRoot) {
        this.channel = ManagedChannelBuilder.forAddress(httpRoot.getHost(), httpRoot.getPort()).usePlaintext().build();
    }

    public A2AServiceGrpc.A2AServiceBlockingStub stub(String bearerToken) {
        return stub(bearerToken, "1.0");
    }

    /** A stub sending the bearer token and A2A version (each left out when null). */
    public A2AServiceGrpc.A2AServiceBlockingStub stub(String bearerToken, String a2aVersion) {
        Metadata headers = new Metadata();
        if (bearerToken != null) {
            headers.put(AUTHORIZATION, "Bearer " + bearerToken);
        }
        if (a2aVersion != null) {
            headers.put(A2A_VERSION, a2aVersion);
        }
        return A2AServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    /** The history-paging stub, declaring the extension in {@code a2a-extensions} when {@code optIn}. */
    public dev.a2atasks.proto.history.v1.TaskHistoryServiceGrpc.TaskHistoryServiceBlockingStub history(String bearerToken, boolean optIn) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + bearerToken);
        headers.put(A2A_VERSION, "1.0");
        if (optIn) {
            headers.put(Metadata.Key.of("a2a-extensions", Metadata.ASCII_STRING_MARSHALLER), dev.a2atasks.client.HistoryPaging.URI);
        }
        return dev.a2atasks.proto.history.v1.TaskHistoryServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    public ManagedChannel channel() {
        return channel;
    }

    public static ErrorInfo errorInfo(StatusRuntimeException e) {
        return detail(e, ErrorInfo.class);
    }

    public static BadRequest badRequest(StatusRuntimeException e) {
        return detail(e, BadRequest.class);
    }

    private static <T extends com.google.protobuf.Message> T detail(StatusRuntimeException e, Class<T> type) {
        com.google.rpc.Status status = StatusProto.fromThrowable(e);
        if (status == null) {
            return null;
        }
        for (var any : status.getDetailsList()) {
            if (any.is(type)) {
                try {
                    return any.unpack(type);
                } catch (InvalidProtocolBufferException ex) {
                    throw new AssertionError(ex);
                }
            }
        }
        return null;
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
