package dev.a2atasks.bench;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;

/**
 * Table l: subscribers that never read, on a task whose snapshot is 2 MB (a WORKING task with a
 * 2 MB artifact, written straight into the database; no run, so it stays WORKING). First over
 * Server-Sent Events: each opens SubscribeToTask over a socket with a 4 KB receive buffer and
 * reads nothing. Then over gRPC: each call requests no message, on 20 channels whose
 * flow-control window is 64 KiB. Heap after a full GC and RSS of the service before, once all are
 * subscribed, and after the stall bound ({@code a2a.http.limits.max-stream-stall}, 30 s by
 * default) has passed; then how many of the streams the service had not ended.
 */
final class StalledSubscribers {

    private StalledSubscribers() {
    }

    static Table run(Path java, Map<String, String> env, Path log, String token, String jdbcUrl, int subscribers) throws Exception {
        Map<String, String> configured = new HashMap<>(env);
        configured.put("A2A_RATE_LIMIT_MAX_OPEN_STREAMS", Integer.toString(subscribers)); // one caller: its open-stream bound raised to N
        Table table = new Table("l. " + subscribers + " subscribers that never read, on one WORKING task with a 2 MB snapshot "
                + "(heap used after a full GC, RSS)", "moment", "binding", "heap MiB after GC", "RSS MiB", "streams open");
        try (Service service = Service.start(java, List.of(), configured, log)) {
            try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
                s.execute("DELETE FROM tasks WHERE tenant = 'bench' AND owner = 'stalled'");
                s.execute("WITH t AS (INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts) "
                        + "VALUES ('bench', 'stalled', 'stalled-2mb', 'ctx', 'TASK_STATE_WORKING', now()) RETURNING pk, owner) "
                        + "INSERT INTO artifacts (task_pk, owner, artifact_id, ord, name, parts) SELECT pk, owner, 'big', 0, 'big', "
                        + "jsonb_build_array(jsonb_build_object('text', repeat('x', 2 * 1024 * 1024))) FROM t");
            }
            table.row("before", "", Table.format(IdleSubscribers.heapAfterGc(service.process.pid())), Table.format(service.rssMiB()), 0);
            sse(service, table, token, subscribers);
            grpc(service, table, token, subscribers);
        }
        table.note("One caller holds all of them: its open-stream bound (a2a.rate-limit.max-open-streams, 100 by default) is raised to "
                + subscribers + " for this table, so that the stall bound is what is measured. 'streams open': over SSE a connection the "
                + "service had not closed (reading it then would block); over gRPC a call that, asked for its messages then, "
                + "was not closed within 5 s (a cut-off call is closed RESOURCE_EXHAUSTED).");
        return table;
    }

    /** The Server-Sent Events round: sockets with a 4 KB receive buffer that read nothing. */
    private static void sse(Service service, Table table, String token, int subscribers) throws Exception {
        String request = "GET /tasks/stalled-2mb:subscribe HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nA2A-Version: 1.0\r\nAccept: text/event-stream\r\n\r\n";
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < subscribers; i++) {
                Socket socket = new Socket();
                socket.setReceiveBufferSize(4096);
                socket.connect(new InetSocketAddress("127.0.0.1", service.port));
                socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                sockets.add(socket);
            }
            Thread.sleep(5_000);
            table.row("all subscribed, 5 s later", "HTTP+JSON (SSE)", Table.format(IdleSubscribers.heapAfterGc(service.process.pid())),
                    Table.format(service.rssMiB()), subscribers);
            // Past the 30 s stall bound and the watch's granularity (a quarter of it): a stream
            // is seen stalled at the first look after its write queue filled, then cut off at
            // the first look 30 s after that.
            Thread.sleep(50_000);
            double heap = IdleSubscribers.heapAfterGc(service.process.pid());
            double rss = service.rssMiB();
            int open = 0;
            for (Socket socket : sockets) {
                if (stillOpen(socket)) {
                    open++;
                }
            }
            table.row("55 s later (stall bound 30 s)", "HTTP+JSON (SSE)", Table.format(heap), Table.format(rss),
                    open + " of " + sockets.size());
            System.out.printf("stalled SSE subscribers: %d, still open after the stall bound: %d, heap %.1f MiB%n", subscribers, open, heap);
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /**
     * The gRPC round: calls that request no message, spread over 20 channels (an HTTP/2
     * connection carries at most 100 streams here) whose flow-control window is 64 KiB, so the
     * service's writes block on each stream once that much is sent.
     */
    private static void grpc(Service service, Table table, String token, int subscribers) throws Exception {
        List<ManagedChannel> channels = new ArrayList<>();
        List<CompletableFuture<Status>> closed = new ArrayList<>();
        List<ClientCall<SubscribeToTaskRequest, StreamResponse>> calls = new ArrayList<>();
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        headers.put(Metadata.Key.of("a2a-version", Metadata.ASCII_STRING_MARSHALLER), "1.0");
        try {
            for (int i = 0; i < 20; i++) {
                channels.add(NettyChannelBuilder.forAddress("127.0.0.1", service.port).usePlaintext()
                        .initialFlowControlWindow(65536).maxInboundMessageSize(8 << 20).build());
            }
            for (int i = 0; i < subscribers; i++) {
                ClientCall<SubscribeToTaskRequest, StreamResponse> call = channels.get(i % channels.size())
                        .newCall(A2AServiceGrpc.getSubscribeToTaskMethod(), CallOptions.DEFAULT);
                CompletableFuture<Status> done = new CompletableFuture<>();
                call.start(new ClientCall.Listener<>() {
                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        done.complete(status);
                    }
                }, headers);
                call.sendMessage(SubscribeToTaskRequest.newBuilder().setId("stalled-2mb").build());
                call.halfClose();
                calls.add(call);
                closed.add(done);
            }
            Thread.sleep(5_000);
            table.row("all subscribed, 5 s later", "gRPC", Table.format(IdleSubscribers.heapAfterGc(service.process.pid())),
                    Table.format(service.rssMiB()), subscribers);
            Thread.sleep(50_000);
            double heap = IdleSubscribers.heapAfterGc(service.process.pid());
            double rss = service.rssMiB();
            // A gRPC client learns how its stream ended only once it reads: ask each for its messages now.
            calls.forEach(call -> call.request(Integer.MAX_VALUE));
            Map<Status.Code, Integer> ends = new java.util.TreeMap<>();
            int open = 0;
            for (CompletableFuture<Status> done : closed) {
                try {
                    ends.merge(done.get(5, TimeUnit.SECONDS).getCode(), 1, Integer::sum);
                } catch (java.util.concurrent.TimeoutException e) {
                    open++;
                }
            }
            table.row("55 s later (stall bound 30 s)", "gRPC", Table.format(heap), Table.format(rss),
                    open + " of " + calls.size() + " (closed: " + ends + ")");
            System.out.printf("stalled gRPC subscribers: %d, still open after the stall bound: %d, ended %s, heap %.1f MiB%n",
                    subscribers, open, ends, heap);
        } finally {
            calls.forEach(call -> call.cancel("bench done", null));
            for (ManagedChannel channel : channels) {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    /** Whether the service still holds this connection open: reading it to its end does not reach an end (or a reset) in 0.5 s. */
    private static boolean stillOpen(Socket socket) throws Exception {
        socket.setSoTimeout(500);
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1 << 16];
        try {
            while (in.read(buffer) >= 0) {
                // drain what the kernel held; a closed connection ends (or resets) after it
            }
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        } catch (SocketException reset) {
            return false;
        }
    }
}
