package dev.a2atasks.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.Tokens;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The two operator switches on a packaged server: JSON logs (one property) whose lines carry the
 * request id and the trace id, and OpenTelemetry tracing, whose spans (bindings and database)
 * reach an OTLP/HTTP collector. The collector here is a loopback HTTP server that keeps what it is sent.
 */
class LogsAndTracesIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void jsonLogsCarryRequestAndTraceIdsAndSpansReachTheCollector() throws Exception {
        List<byte[]> exports = new CopyOnWriteArrayList<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", exchange -> {
            exports.add(exchange.getRequestBody().readAllBytes());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start();
                PackagedServer server = PackagedServer.start("logs-traces", database, Map.of(
                        "quarkus.log.console.json.enabled", "true",
                        "quarkus.log.category.\"dev.a2atasks.protocol.RequestHandler\".level", "DEBUG",
                        "quarkus.otel.sdk.disabled", "false",
                        "quarkus.otel.exporter.otlp.traces.protocol", "http/protobuf",
                        "quarkus.otel.exporter.otlp.traces.endpoint", "http://127.0.0.1:" + collector.getAddress().getPort(),
                        "quarkus.otel.bsp.schedule.delay", "100ms"))) {
            String bearer = Tokens.validOutsideQuarkus("", "observed");
            HttpResponse<String> http = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url("/tasks")))
                    .header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0").header("X-Request-Id", "it-http-1").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, http.statusCode(), http.body());
            assertEquals("it-http-1", http.headers().firstValue("X-Request-Id").orElse(null), "the id is echoed");
            HttpResponse<String> unnamed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url("/tasks")))
                    .header("Authorization", "Bearer " + bearer).header("X-Request-Id", "not a plain id!").build(),
                    HttpResponse.BodyHandlers.ofString());
            String fresh = unnamed.headers().firstValue("X-Request-Id").orElseThrow();
            assertTrue(fresh.matches("[0-9a-f-]{36}"), "an unusable id is replaced: " + fresh);

            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
            try {
                Metadata headers = new Metadata();
                headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + bearer);
                headers.put(Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER), "it-grpc-1");
                headers.put(Metadata.Key.of("a2a-version", Metadata.ASCII_STRING_MARSHALLER), "1.0");
                A2AServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                        .listTasks(ListTasksRequest.getDefaultInstance());
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }

            JsonNode httpLine = awaitLine(server, "it-http-1");
            JsonNode grpcLine = awaitLine(server, "it-grpc-1");
            for (JsonNode line : List.of(httpLine, grpcLine)) {
                assertEquals("DEBUG", line.get("level").asText());
                assertTrue(line.get("message").asText().contains("ListTasks ok"), line.toString());
                assertFalse(line.path("mdc").path("traceId").asText().isEmpty(), "the trace id is in the line: " + line);
            }
            assertTrue(httpLine.get("message").asText().startsWith("HTTP+JSON "), httpLine.toString());
            assertTrue(grpcLine.get("message").asText().startsWith("GRPC "), grpcLine.toString());

            // The spans of both calls, and of their database statements, reach the collector.
            String traceId = grpcLine.get("mdc").get("traceId").asText();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline && !(exported(exports).contains("ListTasks") && exported(exports).contains("db.statement")
                    && exported(exports).contains(hexToBytesAsLatin1(traceId)))) {
                Thread.sleep(100);
            }
            String all = exported(exports);
            assertTrue(all.contains("ListTasks"), "a span of the gRPC call");
            assertTrue(all.contains("GET /tasks") || all.contains("/tasks"), "a span of the HTTP call");
            assertTrue(all.contains("db.statement") && all.contains("FROM tasks WHERE tenant = $1 AND owner = $2"),
                    "a span of a database statement (its SQL with placeholders, never the values)");
            assertFalse(all.contains("observed"), "no caller identity in any span");
            assertTrue(all.contains(hexToBytesAsLatin1(traceId)), "the logged trace id is the exported trace's");
            for (String line : Files.readAllLines(server.log())) {
                if (line.startsWith("{")) {
                    assertNotNull(JSON.readTree(line), line); // every line is one JSON object
                }
            }
        } finally {
            collector.stop(0);
        }
    }

    private static JsonNode awaitLine(PackagedServer server, String requestId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : Files.readAllLines(server.log())) {
                if (line.startsWith("{") && line.contains(requestId)) {
                    JsonNode json = JSON.readTree(line);
                    if (requestId.equals(json.path("mdc").path("requestId").asText())) {
                        return json;
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no JSON log line with requestId " + requestId + ":\n" + Files.readString(server.log()));
    }

    /** Everything exported so far, as Latin-1 text: protobuf strings and bytes read as they are. */
    private static String exported(List<byte[]> exports) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        exports.forEach(all::writeBytes);
        return all.toString(StandardCharsets.ISO_8859_1);
    }

    /** A trace id travels in OTLP/protobuf as 16 raw bytes. */
    private static String hexToBytesAsLatin1(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
