package dev.a2atasks.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A subscriber that never reads holds its buffers for a bounded time: once what was written to
 * it has sat unread for {@code a2a.http.limits.max-stream-stall}, its connection is closed. A
 * subscriber that reads is not affected. The task's snapshot is 2 MB: left to itself, Linux
 * grows a loopback connection's send buffer to hold all of it, and the stall would never show
 * in the service's write queue; the stream's send-buffer cap
 * ({@code a2a.http.limits.stream-send-buffer-bytes}) is what makes it show.
 */
@QuarkusTest
@TestProfile(StalledSubscriberTest.ShortStall.class)
class StalledSubscriberTest extends BindingTest {

    public static class ShortStall implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("a2a.http.limits.max-stream-stall", "1s");
        }
    }

    @Test
    void aSubscriberThatNeverReadsIsCutOffAndOneThatReadsIsNot() throws Exception {
        String tenant = "StalledSubscriberTest";
        db.clearTenant(tenant);
        long pk = db.insertTask(tenant, "alice", "huge", "ctx", "TASK_STATE_WORKING", Instant.now().minusSeconds(5));
        db.execute("INSERT INTO artifacts (task_pk, owner, artifact_id, ord, name, parts) SELECT pk, owner, 'big', 0, 'big',"
                + " jsonb_build_array(jsonb_build_object('text', repeat('x', 2 * 1024 * 1024))) FROM tasks WHERE pk = " + pk);
        String request = "GET /tasks/huge:subscribe HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Tokens.valid(tenant, "alice")
                + "\r\nA2A-Version: 1.0\r\nAccept: text/event-stream\r\n\r\n";

        try (Socket stalled = new Socket(); Socket reader = new Socket()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress(root.getHost(), root.getPort()));
            stalled.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            reader.connect(new InetSocketAddress(root.getHost(), root.getPort()));
            OutputStream out = reader.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            long readerBytes = readFor(reader, 3_000); // the snapshot, then the stream stays open: the task is WORKING
            assertTrue(readerBytes > 2 * 1024 * 1024, "the reading subscriber got the snapshot: " + readerBytes);

            Thread.sleep(1_500); // past the stall bound: the stalled one has read nothing for 4.5 s now
            stalled.setSoTimeout(15_000);
            InputStream in = stalled.getInputStream();
            byte[] buffer = new byte[65536];
            long read = 0;
            try {
                for (int n; (n = in.read(buffer)) >= 0;) {
                    read += n;
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the stalled subscriber's stream is still open after " + read + " bytes");
            } catch (java.net.SocketException reset) {
                // closed by the service: what was buffered is gone with the connection
            }
            // Reaching the end at all is the cut-off: the task is WORKING, so its stream would stay
            // open. (How much of the snapshot got through first is the kernels' business.)

            assertTrue(readFor(reader, 500) >= 0, "the reading subscriber's stream is still open");
        }
    }

    /**
     * The same bound over gRPC, where the Mutiny stubs write a stream's messages whatever the
     * client's flow-control window: a call that requests no messages (and has a 64 KiB window)
     * is reset once the service has seen its stream blocked for the stall bound, and reads that
     * as RESOURCE_EXHAUSTED; a call that reads keeps its stream.
     */
    @Test
    void aGrpcSubscriberThatNeverReadsIsCutOffAndOneThatReadsIsNot() throws Exception {
        String tenant = "StalledGrpcSubscriberTest";
        db.clearTenant(tenant);
        long pk = db.insertTask(tenant, "alice", "huge", "ctx", "TASK_STATE_WORKING", Instant.now().minusSeconds(5));
        db.execute("INSERT INTO artifacts (task_pk, owner, artifact_id, ord, name, parts) SELECT pk, owner, 'big', 0, 'big',"
                + " jsonb_build_array(jsonb_build_object('text', repeat('x', 2 * 1024 * 1024))) FROM tasks WHERE pk = " + pk);
        // Two connections: HTTP/2 flow control is also per connection, so a stream its client leaves unread
        // can hold up the other streams of the same connection (the client's own doing); a reader on a
        // connection of its own must never be cut off.
        io.grpc.ManagedChannel channel = io.grpc.netty.NettyChannelBuilder.forAddress(root.getHost(), root.getPort())
                .usePlaintext().initialFlowControlWindow(65536).maxInboundMessageSize(8 << 20).build();
        // The reader's window holds the whole snapshot: with a small one its stream too stays blocked while
        // the 2 MB drain window by window, and a slow machine (CI) can take longer than the 1 s bound for it.
        io.grpc.ManagedChannel readerChannel = io.grpc.netty.NettyChannelBuilder.forAddress(root.getHost(), root.getPort())
                .usePlaintext().initialFlowControlWindow(8 << 20).maxInboundMessageSize(8 << 20).build();
        try {
            io.grpc.Metadata headers = new io.grpc.Metadata();
            headers.put(io.grpc.Metadata.Key.of("authorization", io.grpc.Metadata.ASCII_STRING_MARSHALLER),
                    "Bearer " + Tokens.valid(tenant, "alice"));
            headers.put(io.grpc.Metadata.Key.of("a2a-version", io.grpc.Metadata.ASCII_STRING_MARSHALLER), "1.0");
            var request = dev.a2atasks.proto.v1.SubscribeToTaskRequest.newBuilder().setId("huge").build();

            Watched stalled = new Watched(channel.newCall(dev.a2atasks.proto.v1.A2AServiceGrpc.getSubscribeToTaskMethod(),
                    io.grpc.CallOptions.DEFAULT));
            stalled.start(headers, request, 0);
            Watched reader = new Watched(readerChannel.newCall(dev.a2atasks.proto.v1.A2AServiceGrpc.getSubscribeToTaskMethod(),
                    io.grpc.CallOptions.DEFAULT));
            reader.start(headers, request, Integer.MAX_VALUE);
            assertTrue(reader.messages.await(10, java.util.concurrent.TimeUnit.SECONDS),
                    "the reading subscriber got the snapshot (its call: " + reader.closed.getNow(null) + ")");

            Thread.sleep(3_000); // the stalled one's stream has been blocked for well past the 1 s bound
            stalled.call.request(Integer.MAX_VALUE); // reading now lets the client see how its stream ended
            io.grpc.Status status = stalled.closed.get(15, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, status.getCode(), "the stalled call was cut off: " + status);
            assertEquals(1, stalled.messages.getCount(), "the stalled call got no message before its cut-off");

            assertFalse(reader.closed.isDone(), "the reading subscriber's stream is still open: " + reader.closed.getNow(null));
            reader.call.cancel("done", null);
        } finally {
            channel.shutdownNow();
            readerChannel.shutdownNow();
        }
    }

    /** A raw SubscribeToTask call: how many messages it got (counting down from one) and how it closed. */
    private static final class Watched {
        final io.grpc.ClientCall<dev.a2atasks.proto.v1.SubscribeToTaskRequest, dev.a2atasks.proto.v1.StreamResponse> call;
        final java.util.concurrent.CountDownLatch messages = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CompletableFuture<io.grpc.Status> closed = new java.util.concurrent.CompletableFuture<>();

        Watched(io.grpc.ClientCall<dev.a2atasks.proto.v1.SubscribeToTaskRequest, dev.a2atasks.proto.v1.StreamResponse> call) {
            this.call = call;
        }

        void start(io.grpc.Metadata headers, dev.a2atasks.proto.v1.SubscribeToTaskRequest request, int read) {
            call.start(new io.grpc.ClientCall.Listener<>() {
                @Override
                public void onMessage(dev.a2atasks.proto.v1.StreamResponse message) {
                    messages.countDown();
                }

                @Override
                public void onClose(io.grpc.Status status, io.grpc.Metadata trailers) {
                    closed.complete(status);
                }
            }, headers);
            call.sendMessage(request);
            call.halfClose();
            if (read > 0) {
                call.request(read);
            }
        }
    }

    /** Reads what arrives on the socket for {@code millis}; the count of bytes. */
    private static long readFor(Socket socket, long millis) throws Exception {
        socket.setSoTimeout(100);
        byte[] buffer = new byte[65536];
        long read = 0;
        long until = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < until) {
            try {
                int n = socket.getInputStream().read(buffer);
                if (n < 0) {
                    return -1 - read;
                }
                read += n;
            } catch (SocketTimeoutException idle) {
                // nothing more for now
            }
        }
        return read;
    }
}
