package dev.a2atasks.hardening;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.rpc.BadRequest;

import dev.a2atasks.support.GrpcChannels;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Requests exactly as a careless client or an attacker writes them, on each binding: raw URLs
 * (no encoding by the test client), raw JSON-RPC bodies, raw protobuf bytes. Each call returns
 * the answer normalized, after checking that its shape is the documented one.
 */
final class RawCalls {

    /** What a caller was told: HTTP status or gRPC code, status name, message, fields named. */
    record Answer(int http, String status, String message, List<String> fields) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> GRPC_REFUSALS = Set.of("INVALID_ARGUMENT", "NOT_FOUND", "UNIMPLEMENTED",
            "RESOURCE_EXHAUSTED", "UNAUTHENTICATED", "FAILED_PRECONDITION");

    private RawCalls() {
    }

    static RequestSpecification http(String bearer) {
        return given().urlEncodingEnabled(false)
                .config(RestAssuredConfig.config().encoderConfig(EncoderConfig.encoderConfig()
                        .appendDefaultContentCharsetToContentTypeIfUndefined(false)))
                .header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer);
    }

    /** An HTTP+JSON error: 4xx (never 5xx), a JSON media type, and the {"error":{code,status,message,details}} body. */
    static Answer restError(Response response) {
        return restError(response.statusCode(), response.contentType(), response.asString());
    }

    static Answer restError(int code, String type, String body) {
        assertTrue(code >= 400 && code < 500, "expected a 4xx, got " + code + ": " + body);
        assertTrue(type != null && (type.startsWith("application/a2a+json") || type.startsWith("application/json")),
                "content type " + type + " for " + code + ": " + body);
        JsonNode error = read(body).get("error");
        assertNotNull(error, body);
        assertEquals(code, error.path("code").asInt(), body);
        assertFalse(error.path("status").asText().isEmpty(), body);
        assertFalse(error.path("message").asText().isEmpty(), body);
        assertTrue(error.path("details").isArray(), body);
        return new Answer(code, error.path("status").asText(), error.path("message").asText(), fields(error.path("details")));
    }

    /** A JSON-RPC error: a 2.0 envelope whose error is never -32603 (or another 5xx-class answer). */
    static Answer jsonRpcError(Response response) {
        String body = response.asString();
        int http = response.statusCode();
        assertTrue(http == 200 || http == 401 || http == 413, "HTTP " + http + ": " + body);
        JsonNode envelope = read(body);
        assertEquals("2.0", envelope.path("jsonrpc").asText(), body);
        assertTrue(envelope.has("id"), body);
        JsonNode error = envelope.get("error");
        assertNotNull(error, "no error for a bad request: " + body);
        int code = error.path("code").asInt();
        assertTrue(code != -32603 && code != 0, body);
        assertFalse(error.path("message").asText().isEmpty(), body);
        return new Answer(code, dev.a2atasks.support.JsonRpc.statusOf(code), error.path("message").asText(), fields(error.path("data")));
    }

    /**
     * A GET with this request target sent byte for byte over a socket, for targets that URL
     * libraries refuse to send (bad percent-escapes); returns the HTTP+JSON error it got.
     */
    static Answer rawGet(java.net.URL root, String bearer, String target) {
        try (java.net.Socket socket = new java.net.Socket(root.getHost(), root.getPort())) {
            socket.setSoTimeout(20_000);
            String request = "GET " + target + " HTTP/1.1\r\nHost: " + root.getHost() + ":" + root.getPort()
                    + "\r\nAuthorization: Bearer " + bearer + "\r\nA2A-Version: 1.0\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            String response = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            int headEnd = response.indexOf("\r\n\r\n");
            assertTrue(headEnd > 0, "no HTTP response (connection dropped?) for " + target + ": " + response);
            String head = response.substring(0, headEnd);
            String body = response.substring(headEnd + 4);
            int status = Integer.parseInt(head.substring(9, 12));
            String type = null;
            boolean chunked = false;
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(java.util.Locale.ROOT);
                if (lower.startsWith("content-type:")) {
                    type = line.substring(13).trim();
                }
                chunked |= lower.startsWith("transfer-encoding:") && lower.contains("chunked");
            }
            return restError(status, type, chunked ? dechunk(body) : body);
        } catch (IOException e) {
            throw new AssertionError(target, e);
        }
    }

    private static String dechunk(String body) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return out.toString();
            }
            out.append(body, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }

    static Answer jsonRpc(String bearer, byte[] body) {
        return jsonRpcError(http(bearer).contentType("application/json").body(body).post("/"));
    }

    static Answer jsonRpc(String bearer, String method, String paramsJson) {
        return jsonRpc(bearer, ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + paramsJson + "}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Sends these bytes as the request message of an A2AService method (or "/full.Service/Method") and returns the refusal. */
    static Answer grpcRaw(ManagedChannel channel, String bearer, String method, byte[] request, Metadata extra) {
        String fullName = method.startsWith("/") ? method.substring(1) : "lf.a2a.v1.A2AService/" + method;
        Metadata headers = grpcHeaders(bearer);
        if (extra != null) {
            headers.merge(extra);
        }
        return grpcError(grpcRefusal(channel, fullName, request, headers));
    }

    /** A caller's gRPC headers: its bearer token and the protocol version. */
    static Metadata grpcHeaders(String bearer) {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + bearer);
        headers.put(Metadata.Key.of("a2a-version", Metadata.ASCII_STRING_MARSHALLER), "1.0");
        return headers;
    }

    /** Sends these bytes as the request message of this method (full name) with these headers; the refusal it got. */
    static StatusRuntimeException grpcRefusal(ManagedChannel channel, String method, byte[] request, Metadata headers) {
        MethodDescriptor<byte[], byte[]> descriptor = MethodDescriptor.<byte[], byte[]>newBuilder(BYTES, BYTES)
                .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName(method).build();
        try {
            var intercepted = io.grpc.ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
            ClientCalls.blockingUnaryCall(intercepted, descriptor, CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), request);
        } catch (StatusRuntimeException e) {
            return e;
        }
        throw new AssertionError("gRPC " + method + " accepted a malformed request");
    }

    /** A gRPC refusal: a status a client can act on, with a message; never INTERNAL or UNKNOWN, never a dropped connection. */
    static Answer grpcError(StatusRuntimeException e) {
        String code = e.getStatus().getCode().name();
        assertTrue(GRPC_REFUSALS.contains(code), code + ": " + e.getStatus().getDescription());
        assertNotNull(e.getStatus().getDescription(), code + " without a message");
        BadRequest badRequest = GrpcChannels.badRequest(e);
        List<String> fields = new ArrayList<>();
        if (badRequest != null) {
            badRequest.getFieldViolationsList().forEach(v -> fields.add(v.getField()));
        }
        return new Answer(e.getStatus().getCode().value(), code, e.getStatus().getDescription(), fields);
    }

    private static List<String> fields(JsonNode details) {
        List<String> fields = new ArrayList<>();
        for (JsonNode detail : details) {
            if ("type.googleapis.com/google.rpc.BadRequest".equals(detail.path("@type").asText())) {
                detail.path("fieldViolations").forEach(v -> fields.add(v.path("field").asText()));
            }
        }
        return fields;
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    };

    static Map<String, Object> none() {
        return Map.of();
    }
}
