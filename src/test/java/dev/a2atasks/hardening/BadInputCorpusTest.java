package dev.a2atasks.hardening;

import static dev.a2atasks.hardening.RawCalls.grpcError;
import static dev.a2atasks.hardening.RawCalls.grpcRaw;
import static dev.a2atasks.hardening.RawCalls.http;
import static dev.a2atasks.hardening.RawCalls.jsonRpc;
import static dev.a2atasks.hardening.RawCalls.jsonRpcError;
import static dev.a2atasks.hardening.RawCalls.restError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.hardening.RawCalls.Answer;
import dev.a2atasks.proto.v1.GetTaskRequest;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A corpus of malformed requests, each sent on all three bindings in the nearest form that
 * binding can carry: NUL and bad UTF-8 in every text field, odd and huge numbers, bad escapes,
 * undecodable protobuf, wrong methods and paths, oversized lines, headers, bodies and metadata.
 * Every answer is a client error in the documented shape (never a 5xx, INTERNAL or -32603), and
 * where the same input is expressible on several bindings they say the same thing.
 */
@QuarkusTest
class BadInputCorpusTest extends BindingTest {

    private static final String TENANT = "BadInputCorpusTest";
    private static final String BEARER = Tokens.valid(TENANT, "alice");
    private static int requests;
    private static GrpcChannels grpc;
    private static java.net.URL rootUrl;

    /** One malformed request: its form on each binding, the field it must name, whether the messages must agree. */
    record Case(String name, Supplier<Answer> rest, Supplier<Answer> jsonRpc, Supplier<Answer> grpc, String field,
            boolean sameMessage, boolean grpcNamesField) {
        Case(String name, Supplier<Answer> rest, Supplier<Answer> jsonRpc, Supplier<Answer> grpc, String field, boolean sameMessage) {
            this(name, rest, jsonRpc, grpc, field, sameMessage, true);
        }
    }

    @BeforeAll
    void data() {
        db.clearTenant(TENANT);
        db.insertTask(TENANT, "alice", "t1", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-01-01T00:00:00Z"));
        grpc = new GrpcChannels(root);
        rootUrl = root;
    }

    @AfterAll
    void report() throws InterruptedException {
        grpc.close();
        System.out.printf("Bad-input corpus: %d cases, %d requests%n", cases().count(), requests);
    }

    static Stream<Arguments> corpus() {
        return cases().map(c -> Arguments.of(c.name(), c));
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        textCases(cases);
        numberCases(cases);
        framingCases(cases);
        return cases.stream();
    }

    // ---------------------------------------------------------------- text: NUL and bad UTF-8

    private static void textCases(List<Case> cases) {
        for (String value : List.of("a\u0000b", "\u0000", "x\u0000")) {
            String shown = value.replace("\u0000", "NUL");
            String json = jsonString(value);
            String url = percent(value);
            cases.add(new Case("ListTasks contextId " + shown,
                    () -> restError(http(BEARER).get("/tasks?contextId=" + url)),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"contextId\":" + json + "}"),
                    () -> grpcList(ListTasksRequest.newBuilder().setContextId(value)), "contextId", true));
            cases.add(new Case("ListTasks pageToken " + shown,
                    () -> restError(http(BEARER).get("/tasks?pageToken=" + url)),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"pageToken\":" + json + "}"),
                    () -> grpcList(ListTasksRequest.newBuilder().setPageToken(value)), "pageToken", true));
            cases.add(new Case("ListTasks tenant " + shown,
                    () -> restError(http(BEARER).get("/" + url + "/tasks")),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"tenant\":" + json + "}"),
                    () -> grpcList(ListTasksRequest.newBuilder().setTenant(value)), "tenant", true));
            cases.add(new Case("GetTask id " + shown,
                    () -> restError(http(BEARER).get("/tasks/" + url)),
                    () -> jsonRpc(BEARER, "GetTask", "{\"id\":" + json + "}"),
                    () -> grpcGet(GetTaskRequest.newBuilder().setId(value)), "id", true));
            cases.add(new Case("GetTask tenant " + shown,
                    () -> restError(http(BEARER).get("/" + url + "/tasks/t1")),
                    () -> jsonRpc(BEARER, "GetTask", "{\"id\":\"t1\",\"tenant\":" + json + "}"),
                    () -> grpcGet(GetTaskRequest.newBuilder().setId("t1").setTenant(value)), "tenant", true));
        }
        // Text that is not UTF-8: percent-escapes of bad bytes on HTTP, lone surrogates in JSON, bad bytes in protobuf.
        String[][] badText = {
                { "%ED%A0%80", "\\ud800", "eda080" }, // an encoded surrogate
                { "%FF", "\\udc00", "ff" },
                { "a%C3", "a\\ud800", "61c3" }, // a truncated sequence
                { "%C0%AF", "\\udc00\\ud800", "c0af" }, // overlong; a reversed pair
        };
        for (String[] bad : badText) {
            byte[] utf8Bad = HexFormat.of().parseHex(bad[2]);
            cases.add(new Case("ListTasks contextId not UTF-8 " + bad[2],
                    () -> restError(http(BEARER).get("/tasks?contextId=" + bad[0])),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"contextId\":\"" + bad[1] + "\"}"),
                    () -> grpcRaw(grpc.channel(), BEARER, "ListTasks", field(2, utf8Bad), null), "contextId", false, false));
            cases.add(new Case("ListTasks pageToken not UTF-8 " + bad[2],
                    () -> restError(http(BEARER).get("/tasks?pageToken=" + bad[0])),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"pageToken\":\"" + bad[1] + "\"}"),
                    () -> grpcRaw(grpc.channel(), BEARER, "ListTasks", field(5, utf8Bad), null), "pageToken", false, false));
            cases.add(new Case("ListTasks tenant not UTF-8 " + bad[2],
                    () -> restError(http(BEARER).get("/" + bad[0] + "/tasks")),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"tenant\":\"" + bad[1] + "\"}"),
                    () -> grpcRaw(grpc.channel(), BEARER, "ListTasks", field(1, utf8Bad), null), "tenant", false, false));
            cases.add(new Case("GetTask id not UTF-8 " + bad[2],
                    () -> restError(http(BEARER).get("/tasks/" + bad[0])),
                    () -> jsonRpc(BEARER, "GetTask", "{\"id\":\"" + bad[1] + "\"}"),
                    () -> grpcRaw(grpc.channel(), BEARER, "GetTask", field(2, utf8Bad), null), "id", false, false));
        }
    }

    // ---------------------------------------------------------------- numbers: one grammar, int32, never capped

    private static void numberCases(List<Case> cases) {
        // value as sent on HTTP (raw query text), as a JSON literal, and the nearest bad value gRPC's int32 can hold
        Object[][] pageSizes = {
                { "%2B5", "\"+5\"", 0 }, { "05", "\"05\"", 101 }, { "%EF%BC%95", "\"\uFF15\"", -1 }, { "5.0", "5.0", 0 },
                { "1e2", "1e2", 101 }, { "2147483648", "2147483648", Integer.MAX_VALUE },
                { "-2147483649", "-2147483649", Integer.MIN_VALUE }, { "99999999999999999999", "99999999999999999999", 1000 },
                { "%205", "\" 5\"", -5 }, { "0x10", "\"0x10\"", 102 }, { "5abc", "\"5abc\"", 200 }, { "-0", "\"-0\"", 0 },
        };
        for (Object[] v : pageSizes) {
            cases.add(new Case("ListTasks pageSize " + v[0],
                    () -> restError(http(BEARER).get("/tasks?pageSize=" + v[0])),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"pageSize\":" + v[1] + "}"),
                    () -> grpcList(ListTasksRequest.newBuilder().setPageSize((Integer) v[2])), "pageSize", false));
        }
        Object[][] historyLengths = {
                { "2147483648", "2147483648", -1 }, { "99999999999999", "99999999999999", Integer.MIN_VALUE },
                { "%2B1", "\"+1\"", -2 }, { "%EF%BC%90", "\"\uFF10\"", -100 }, { "1.5", "1.5", -1 }, { "-0", "\"-0\"", -3 },
        };
        for (Object[] v : historyLengths) {
            cases.add(new Case("ListTasks historyLength " + v[0],
                    () -> restError(http(BEARER).get("/tasks?historyLength=" + v[0])),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"historyLength\":" + v[1] + "}"),
                    () -> grpcList(ListTasksRequest.newBuilder().setHistoryLength((Integer) v[2])), "historyLength", false));
            cases.add(new Case("GetTask historyLength " + v[0],
                    () -> restError(http(BEARER).get("/tasks/t1?historyLength=" + v[0])),
                    () -> jsonRpc(BEARER, "GetTask", "{\"id\":\"t1\",\"historyLength\":" + v[1] + "}"),
                    () -> grpcGet(GetTaskRequest.newBuilder().setId("t1").setHistoryLength((Integer) v[2])), "historyLength", false));
        }
        // Same input, expressible on all three: must read the same.
        cases.add(new Case("ListTasks pageSize 2147483647", () -> restError(http(BEARER).get("/tasks?pageSize=2147483647")),
                () -> jsonRpc(BEARER, "ListTasks", "{\"pageSize\":2147483647}"),
                () -> grpcList(ListTasksRequest.newBuilder().setPageSize(Integer.MAX_VALUE)), "pageSize", true));
        String[][] timestamps = { { "2026-01-01T00:00:00Z%00", "\"2026-01-01T00:00:00Z\\u0000\"" }, { "%00", "\"\\u0000\"" },
                { "2026-13-01T00:00:00Z", "\"2026-13-01T00:00:00Z\"" }, { "2026-01-01T00:00:00", "\"2026-01-01T00:00:00\"" },
                { "10000-01-01T00:00:00Z", "\"10000-01-01T00:00:00Z\"" }, { "yesterday", "\"yesterday\"" },
                { "2026-01-01T00:00:00%2B25:00", "\"2026-01-01T00:00:00+25:00\"" } };
        long[] grpcSeconds = { 0, 0, 253402300800L, -62135596801L, 253402300800L, 0, 0 };
        for (int i = 0; i < timestamps.length; i++) {
            String[] t = timestamps[i];
            com.google.protobuf.Timestamp bad = com.google.protobuf.Timestamp.newBuilder().setSeconds(grpcSeconds[i])
                    .setNanos(grpcSeconds[i] == 0 ? -1 : 0).build();
            cases.add(new Case("ListTasks statusTimestampAfter " + t[0],
                    () -> restError(http(BEARER).get("/tasks?statusTimestampAfter=" + t[0])),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"statusTimestampAfter\":" + t[1] + "}"),
                    () -> grpcList(ListTasksRequest.newBuilder().setStatusTimestampAfter(bad)), "statusTimestampAfter", true));
        }
        Object[][] statuses = { { "TASK_STATE_RUNNING", "\"TASK_STATE_RUNNING\"", 99 }, { "task_state_working", "\"task_state_working\"", 42 },
                { "99", "99", 99 }, { "-1", "-1", -1 }, { "%00", "\"\\u0000\"", 1000 }, { "TASK_STATE_WORKING%00", "\"TASK_STATE_WORKING\\u0000\"", 9 },
                { "1.0", "1.0", 77 } };
        for (Object[] v : statuses) {
            cases.add(new Case("ListTasks status " + v[0],
                    () -> restError(http(BEARER).get("/tasks?status=" + v[0])),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"status\":" + v[1] + "}"),
                    () -> grpcList(ListTasksRequest.newBuilder().setStatusValue((Integer) v[2])), "status", false));
        }
        String[][] booleans = { { "maybe", "\"maybe\"" }, { "TRUE", "\"TRUE\"" }, { "1", "1" }, { "yes", "\"yes\"" }, { "%00", "\"\\u0000\"" } };
        for (String[] v : booleans) {
            // gRPC's bool cannot be wrong; its nearest malformed form is a truncated varint for that field.
            cases.add(new Case("ListTasks includeArtifacts " + v[0],
                    () -> restError(http(BEARER).get("/tasks?includeArtifacts=" + v[0])),
                    () -> jsonRpc(BEARER, "ListTasks", "{\"includeArtifacts\":" + v[1] + "}"),
                    () -> grpcRaw(grpc.channel(), BEARER, "ListTasks", new byte[] { 0x40 }, null), "includeArtifacts", false, false));
        }
        String longId = "i".repeat(1025);
        cases.add(new Case("ListTasks contextId of 1025 characters", () -> restError(http(BEARER).get("/tasks?contextId=" + longId)),
                () -> jsonRpc(BEARER, "ListTasks", "{\"contextId\":\"" + longId + "\"}"),
                () -> grpcList(ListTasksRequest.newBuilder().setContextId(longId)), "contextId", true));
        cases.add(new Case("GetTask id of 1025 characters", () -> restError(http(BEARER).get("/tasks/" + longId)),
                () -> jsonRpc(BEARER, "GetTask", "{\"id\":\"" + longId + "\"}"),
                () -> grpcGet(GetTaskRequest.newBuilder().setId(longId)), "id", true));
        String longToken = "A".repeat(2049);
        cases.add(new Case("ListTasks pageToken of 2049 characters", () -> restError(http(BEARER).get("/tasks?pageToken=" + longToken)),
                () -> jsonRpc(BEARER, "ListTasks", "{\"pageToken\":\"" + longToken + "\"}"),
                () -> grpcList(ListTasksRequest.newBuilder().setPageToken(longToken)), "pageToken", true));
        cases.add(new Case("GetTask historyLength -2147483648", () -> restError(http(BEARER).get("/tasks/t1?historyLength=-2147483648")),
                () -> jsonRpc(BEARER, "GetTask", "{\"id\":\"t1\",\"historyLength\":-2147483648}"),
                () -> grpcGet(GetTaskRequest.newBuilder().setId("t1").setHistoryLength(Integer.MIN_VALUE)), "historyLength", true));
    }

    // ---------------------------------------------------------------- framing: escapes, protobuf, methods, sizes

    private static void framingCases(List<Case> cases) {
        String[] undecodable = { "1202fffe", "18ff", "1205 61", "0e", "0f", "0001", "0c", "0b", "2a02c328", "12", "ffffffffffffffffff01" };
        String[] badEscapes = { "contextId=%zz", "contextId=%", "contextId=%1", "pageToken=%G0", "contextId=a%%b", "historyLength=%",
                "status=%E0%A4", "contextId=%u0041", "pageSize=%35%", "includeArtifacts=%74rue%", "contextId=%C3%28" };
        String[] badBodies = { "{\"jsonrpc\":\"2.0\",", "\u00ff\u00fe", "[", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"contextId\":\"\\u",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ListTasks\"}",
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ListTasks\"}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":7}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"Nope\"}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":[1]}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"contextId\":7}}" };
        for (int i = 0; i < undecodable.length; i++) {
            byte[] frame = HexFormat.of().parseHex(undecodable[i].replace(" ", ""));
            String query = badEscapes[i];
            byte[] body = badBodies[i].getBytes(StandardCharsets.ISO_8859_1);
            String grpcMethod = i % 2 == 0 ? "ListTasks" : "GetTask";
            cases.add(new Case("undecodable: protobuf " + undecodable[i] + " / query " + query + " / body " + i,
                    () -> RawCalls.rawGet(rootUrl, BEARER, "/tasks?" + query),
                    () -> jsonRpc(BEARER, body),
                    () -> grpcRaw(grpc.channel(), BEARER, grpcMethod, frame, null), null, false));
        }
        String[][] wrongRoutes = { { "DELETE", "/tasks" }, { "PUT", "/tasks/t1" }, { "PATCH", "/tasks" }, { "POST", "/tasks" },
                { "GET", "/nope" }, { "GET", "/tasks/t1/history/more" }, { "DELETE", "/" }, { "GET", "/message:send" } };
        String[] unknownMethods = { "Nope", "listTasks", "A2AService/ListTasks", "", "GetTask ", "tasks/get", "SendMessage2", "lf.a2a.v1.ListTasks" };
        for (int i = 0; i < wrongRoutes.length; i++) {
            String[] route = wrongRoutes[i];
            String method = unknownMethods[i];
            cases.add(new Case("wrong method: " + route[0] + " " + route[1] + " / \"" + method + "\"",
                    () -> restError(http(BEARER).request(route[0], route[1])),
                    () -> jsonRpc(BEARER, method, "{}"),
                    () -> grpcRaw(grpc.channel(), BEARER, method.isEmpty() ? "Nothing" : method.replace(" ", "_").replace("/", "."), new byte[0], null),
                    null, false));
        }
        Metadata bigMetadata = new Metadata();
        bigMetadata.put(Metadata.Key.of("x-big", Metadata.ASCII_STRING_MARSHALLER), "v".repeat(60 * 1024));
        cases.add(new Case("oversize: 60 KB header / 1.5 MB body / 60 KB metadata",
                () -> restError(http(BEARER).header("X-Big", "v".repeat(60 * 1024)).get("/tasks")),
                () -> jsonRpc(BEARER, ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"x\":\""
                        + "v".repeat(1536 * 1024) + "\"}}").getBytes(StandardCharsets.UTF_8)),
                () -> grpcRaw(grpc.channel(), BEARER, "ListTasks", new byte[0], bigMetadata), null, false));
        cases.add(new Case("oversize: 20 KB request line / 3 MB body / 5 MB message",
                () -> restError(http(BEARER).get("/tasks?contextId=" + "c".repeat(20 * 1024))),
                () -> jsonRpcError(http(BEARER).contentType("application/json").body(new byte[3 * 1024 * 1024]).post("/")),
                () -> grpcRaw(grpc.channel(), BEARER, "ListTasks", field(2, "c".repeat(5 * 1024 * 1024).getBytes(StandardCharsets.UTF_8)), null),
                null, false));
        cases.add(new Case("not acceptable: Accept text/html / Content-Type text/plain / unknown gRPC service",
                () -> restError(http(BEARER).accept("text/html").get("/tasks")),
                () -> jsonRpcError(http(BEARER).contentType("text/plain").body("{}").post("/")),
                () -> grpcRaw(grpc.channel(), BEARER, "/x.unknown.v1.Nothing/Call", new byte[0], null), null, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void refusedInTheDocumentedShapeOnEveryBinding(String name, Case c) {
        Map<String, Answer> answers = new LinkedHashMap<>();
        answers.put("HTTP+JSON", c.rest().get());
        answers.put("JSONRPC", c.jsonRpc().get());
        answers.put("GRPC", c.grpc().get());
        requests += answers.size();
        if (c.field() != null) {
            answers.forEach((binding, answer) -> {
                if (!binding.equals("GRPC") || c.grpcNamesField()) {
                    assertEquals(List.of(c.field()), answer.fields(), name + " on " + binding + ": " + answer);
                }
            });
            assertEquals("INVALID_ARGUMENT", answers.get("HTTP+JSON").status(), name + ": " + answers);
            assertEquals("INVALID_ARGUMENT", answers.get("JSONRPC").status(), name + ": " + answers);
            assertEquals("INVALID_ARGUMENT", answers.get("GRPC").status(), name + ": " + answers);
        }
        if (c.sameMessage()) {
            assertEquals(answers.get("HTTP+JSON").message(), answers.get("JSONRPC").message(), name);
            assertEquals(answers.get("HTTP+JSON").message(), answers.get("GRPC").message(), name);
        } else if (c.field() != null) {
            // Not expressible the same way on gRPC; HTTP+JSON and JSON-RPC still carry the same value and must agree.
            assertEquals(answers.get("HTTP+JSON").message(), answers.get("JSONRPC").message(), name);
        }
    }

    @Test
    void theCorpusIsLargeEnough() {
        assertTrue(cases().count() >= 100, "cases: " + cases().count());
    }

    // ---------------------------------------------------------------- helpers

    private static Answer grpcList(ListTasksRequest.Builder request) {
        try {
            grpc.stub(BEARER).listTasks(request.build());
            throw new AssertionError("accepted " + request);
        } catch (StatusRuntimeException e) {
            return grpcError(e);
        }
    }

    private static Answer grpcGet(GetTaskRequest.Builder request) {
        try {
            grpc.stub(BEARER).getTask(request.build());
            throw new AssertionError("accepted " + request);
        } catch (StatusRuntimeException e) {
            return grpcError(e);
        }
    }

    /** A length-delimited protobuf field with these raw bytes, whatever they are. */
    private static byte[] field(int number, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(number << 3 | 2);
        int length = value.length;
        while ((length & ~0x7f) != 0) {
            out.write((length & 0x7f) | 0x80);
            length >>>= 7;
        }
        out.write(length);
        out.writeBytes(value);
        return out.toByteArray();
    }

    /** UTF-8 percent-encoding of every byte that is not an unreserved URL character. */
    private static String percent(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (Character.isLetterOrDigit(c) && c < 0x80 || c == '-' || c == '_' || c == '.') {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    /** A JSON string literal with every control character escaped. */
    private static String jsonString(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c < 0x20 || c == '"' || c == '\\') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
