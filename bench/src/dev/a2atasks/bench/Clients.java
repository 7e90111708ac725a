package dev.a2atasks.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;

/** Requests of each binding, made the way an ordinary client makes them, plus the SQL floor. */
final class Clients {

    static final String ISSUER = "https://a2a-tasks.dev";
    final String host;
    final int port;
    private final String jdbcUrl;

    Clients(String host, int port, String jdbcUrl) {
        this.host = host;
        this.port = port;
        this.jdbcUrl = jdbcUrl;
    }

    /** An RS256 JWT signed with the development key (the service under test trusts its public half). */
    static String token(Path privateKeyPem, String tenant, String subject) throws Exception {
        String pem = Files.readString(privateKeyPem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        long now = Instant.now().getEpochSecond();
        String header = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = b64.encodeToString(String.format(
                "{\"iss\":\"%s\",\"sub\":\"%s\",\"tenant\":\"%s\",\"iat\":%d,\"exp\":%d}", ISSUER, subject, tenant, now, now + 7200)
                .getBytes(StandardCharsets.UTF_8));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key);
        rsa.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
        return header + "." + payload + "." + b64.encodeToString(rsa.sign());
    }

    // --- gRPC --------------------------------------------------------------------------------

    final class Grpc implements AutoCloseable {
        final ManagedChannel channel = ManagedChannelBuilder.forAddress(host, port).usePlaintext().build();
        final A2AServiceGrpc.A2AServiceBlockingStub stub;

        Grpc(String bearer) {
            Metadata headers = new Metadata();
            headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + bearer);
            headers.put(Metadata.Key.of("a2a-version", Metadata.ASCII_STRING_MARSHALLER), "1.0");
            stub = A2AServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
        }

        ListTasksResponse list(ListTasksRequest request) {
            return stub.withDeadlineAfter(60, TimeUnit.SECONDS).listTasks(request);
        }

        ListTasksResponse list(int pageSize, String token) {
            return stub.withDeadlineAfter(60, TimeUnit.SECONDS).listTasks(ListTasksRequest.newBuilder()
                    .setPageSize(pageSize).setHistoryLength(0).setPageToken(token).build());
        }

        Task get(String id, Integer historyLength) {
            GetTaskRequest.Builder request = GetTaskRequest.newBuilder().setId(id);
            if (historyLength != null) {
                request.setHistoryLength(historyLength);
            }
            return stub.withDeadlineAfter(60, TimeUnit.SECONDS).getTask(request.build());
        }

        @Override
        public void close() throws InterruptedException {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** A request that owns a connection; the load runner closes it. */
    interface Request extends Callable<Object>, AutoCloseable {
    }

    Request grpcList(String bearer, String pageToken) {
        return grpcList(bearer, ListTasksRequest.newBuilder().setPageSize(100).setHistoryLength(0).setPageToken(pageToken).build());
    }

    /** One client's ListTasks request, on its own channel; a page shorter than its pageSize is an error. */
    Request grpcList(String bearer, ListTasksRequest request) {
        Grpc grpc = new Grpc(bearer);
        return new Request() {
            @Override
            public Object call() {
                ListTasksResponse page = grpc.list(request);
                if (page.getTasksCount() != request.getPageSize()) {
                    throw new IllegalStateException("expected " + request.getPageSize() + " tasks, got " + page.getTasksCount());
                }
                return page;
            }

            @Override
            public void close() throws InterruptedException {
                grpc.close();
            }
        };
    }

    // --- HTTP+JSON and JSON-RPC ----------------------------------------------------------------

    Callable<?> httpList(String bearer, String pageToken) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port
                        + "/tasks?pageSize=100&historyLength=0&pageToken=" + pageToken))
                .header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0").GET().build();
        return () -> check(http.send(request, HttpResponse.BodyHandlers.ofByteArray()));
    }

    Callable<?> jsonRpcList(String bearer, String pageToken) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"pageSize\":100,\"historyLength\":0,"
                + "\"pageToken\":\"" + pageToken + "\"}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/"))
                .header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return () -> {
            byte[] response = check(http.send(request, HttpResponse.BodyHandlers.ofByteArray()));
            if (new String(response, 0, Math.min(200, response.length), StandardCharsets.UTF_8).contains("\"error\"")) {
                throw new IllegalStateException(new String(response, StandardCharsets.UTF_8));
            }
            return response;
        };
    }

    private static byte[] check(HttpResponse<byte[]> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + response.statusCode() + ": " + new String(response.body(), StandardCharsets.UTF_8));
        }
        return response.body();
    }

    // --- SQL ------------------------------------------------------------------------------------

    Connection connect() throws Exception {
        Connection c = DriverManager.getConnection(jdbcUrl);
        try (var s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_custom_plan"); // as the service's connections
        }
        return c;
    }

    /** The service's ListTasks page statement, run directly: the floor the service is measured against. */
    static final String KEYSET = """
            SELECT pk, id, context_id, state, status_ts, status_message::text, metadata::text
            FROM tasks
            WHERE tenant = $1 AND owner = $2
              AND (status_ts, id) < ($3, $4)
            ORDER BY status_ts DESC, id DESC
            LIMIT $5""".replaceAll("\\$\\d", "?");

    /** The same page by OFFSET: the baseline keyset paging is compared with. Bench only. */
    static final String OFFSET = """
            SELECT pk, id, context_id, state, status_ts, status_message::text, metadata::text
            FROM tasks
            WHERE tenant = ? AND owner = ?
            ORDER BY status_ts DESC, id DESC
            OFFSET ? LIMIT ?""";

    Request sqlKeyset(String tenant, String owner, Instant cursorTs, String cursorId) throws Exception {
        Connection c = connect();
        PreparedStatement s = c.prepareStatement(KEYSET);
        return sql(c, () -> {
            s.setString(1, tenant);
            s.setString(2, owner);
            s.setTimestamp(3, Timestamp.from(cursorTs));
            s.setString(4, cursorId);
            s.setInt(5, 101);
            return drain(s.executeQuery(), 101);
        });
    }

    Request sqlOffset(String tenant, String owner, int offset) throws Exception {
        Connection c = connect();
        PreparedStatement s = c.prepareStatement(OFFSET);
        return sql(c, () -> {
            s.setString(1, tenant);
            s.setString(2, owner);
            s.setInt(3, offset);
            s.setInt(4, 101);
            return drain(s.executeQuery(), 101);
        });
    }

    private static Request sql(Connection connection, Callable<Object> query) {
        return new Request() {
            @Override
            public Object call() throws Exception {
                return query.call();
            }

            @Override
            public void close() throws Exception {
                connection.close();
            }
        };
    }

    private static int drain(ResultSet rows, int expected) throws Exception {
        int n = 0;
        while (rows.next()) {
            rows.getString(2);
            rows.getTimestamp(5);
            n++;
        }
        rows.close();
        if (n != expected) {
            throw new IllegalStateException("expected " + expected + " rows, got " + n);
        }
        return n;
    }
}
