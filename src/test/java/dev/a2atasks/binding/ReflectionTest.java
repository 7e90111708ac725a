package dev.a2atasks.binding;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;

import dev.a2atasks.support.GrpcChannels;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** What grpcurl needs: the service listed by server reflection, with its file descriptors. */
@QuarkusTest
class ReflectionTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void serviceAndDescriptorsAreDiscoverable() throws Exception {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            List<ServerReflectionResponse> responses = ask(channels,
                    ServerReflectionRequest.newBuilder().setListServices("*").build(),
                    ServerReflectionRequest.newBuilder().setFileContainingSymbol("lf.a2a.v1.A2AService").build());
            List<String> services = new ArrayList<>();
            responses.get(0).getListServicesResponse().getServiceList().forEach(s -> services.add(s.getName()));
            assertTrue(services.contains("lf.a2a.v1.A2AService"), services.toString());
            assertTrue(services.contains("a2atasks.history.v1.TaskHistoryService"), services.toString());

            List<String> files = new ArrayList<>();
            for (var bytes : responses.get(1).getFileDescriptorResponse().getFileDescriptorProtoList()) {
                files.add(FileDescriptorProto.parseFrom(bytes).getName());
            }
            assertTrue(files.contains("a2a.proto"), files.toString());
        }
    }

    private static List<ServerReflectionResponse> ask(GrpcChannels channels, ServerReflectionRequest... requests)
            throws InterruptedException {
        List<ServerReflectionResponse> responses = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        StreamObserver<ServerReflectionRequest> out = ServerReflectionGrpc.newStub(channels.channel())
                .serverReflectionInfo(new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse value) {
                        responses.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.countDown();
                    }

                    @Override
                    public void onCompleted() {
                        done.countDown();
                    }
                });
        for (ServerReflectionRequest request : requests) {
            out.onNext(request);
        }
        out.onCompleted();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        return responses;
    }
}
