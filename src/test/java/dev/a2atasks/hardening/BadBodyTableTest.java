package dev.a2atasks.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;

import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The bad-body table: one SendMessage wrong in one way per row, sent on all three bindings in
 * the nearest form each can carry (a row a binding cannot express is n/a: gRPC bodies are
 * protobuf, not JSON text). Every binding answers the row with the same kind, none with a 5xx,
 * INTERNAL or -32603, every answer within 16 KB, and the refusals write nothing. The table is
 * printed as docs/api.md shows it.
 */
@QuarkusTest
class BadBodyTableTest extends BindingTest {

    private static final String TENANT = "BadBodyTableTest";
    private static final String BEARER = Tokens.valid(TENANT, "alice");
    private static final int MAX_ANSWER_BYTES = 16 * 1024;
    private static final int PARTS = 10_000;
    private static final String SEND = "lf.a2a.v1.A2AService/SendMessage";

    /** What one binding answered: its kind (a status name, or ACCEPTED), the size of the answer, its message. */
    record Said(String kind, int bytes, String message) {
        @Override
        public String toString() {
            return kind + " (" + bytes + " B)";
        }
    }

    /**
     * One row. {@code json} makes the JSON request body from an envelope holding one "@" where the
     * SendMessage params go (null: not expressible in JSON); {@code grpc} the protobuf bytes (null: n/a).
     * {@code says}: a text every refusal's message holds (null when accepted or not common).
     */
    record Row(String name, Function<String, byte[]> json, byte[] grpc, String kind, String says) {
    }

    private static GrpcChannels channels;
    private static final List<String> table = new ArrayList<>();

    @BeforeAll
    void start() {
        db.clearTenant(TENANT);
        channels = new GrpcChannels(root);
        table.add("| body | HTTP+JSON | JSON-RPC | gRPC |");
        table.add("|---|---|---|---|");
    }

    @AfterAll
    void report() throws InterruptedException {
        channels.close();
        System.out.println("Bad-body table:\n" + String.join("\n", table));
    }

    @Test
    void everyBindingAnswersEveryRowAlikeWithinSixteenKilobytesAndWritesNothing() {
        for (Row row : rows()) {
            Said rest = row.json() == null ? null : rest(row.json().apply("@"));
            Said rpc = row.json() == null ? null
                    : jsonRpc(row.json().apply("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":@}"));
            Said grpc = row.grpc() == null ? null : grpc(row.grpc());
            table.add("| " + row.name() + " | " + shown(rest) + " | " + shown(rpc) + " | " + shown(grpc) + " |");
            for (Said said : new Said[] { rest, rpc, grpc }) {
                if (said == null) {
                    continue;
                }
                assertEquals(row.kind(), said.kind(), row.name() + ": " + rest + " / " + rpc + " / " + grpc + ": " + said.message());
                assertTrue(said.bytes() <= MAX_ANSWER_BYTES, row.name() + ": an answer of " + said.bytes() + " bytes");
                if (row.says() != null) {
                    assertTrue(said.message().contains(row.says()), row.name() + ": " + said.message());
                }
            }
            if (rest != null && rpc != null && !row.kind().equals("ACCEPTED")) {
                assertTrue(rpc.message().contains(rest.message()), row.name() + ": the JSON bindings say the same: " + rest.message()
                        + " / " + rpc.message()); // a JSON-RPC parse error says "Request body …" where HTTP+JSON says "body …"
            }
        }
        assertEquals(2, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + TENANT + "'"),
                "only the accepted row wrote (one task on each JSON binding)");
        assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = 'someone-elses'"), "nothing for the foreign tenant");
    }

    private static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        Value inf = Value.newBuilder().setNumberValue(Double.POSITIVE_INFINITY).build();
        Value nan = Value.newBuilder().setNumberValue(Double.NaN).build();
        rows.add(new Row("non-finite number in a data part: `{\"n\":1e400}` / `number_value=inf`",
                json("\"parts\":[{\"data\":{\"n\":1e400}}]"),
                grpc(message().addParts(Part.newBuilder().setData(Value.newBuilder().setStructValue(Struct.newBuilder().putFields("n", inf))))),
                "INVALID_ARGUMENT", "message.parts[0].data must hold finite numbers only"));
        rows.add(new Row("non-finite number in a data list: `[1,-1e999]` / `number_value=-inf`",
                json("\"parts\":[{\"data\":[1,-1e999]}]"),
                grpc(message().addParts(Part.newBuilder().setData(Value.newBuilder().setListValue(com.google.protobuf.ListValue.newBuilder()
                        .addValues(Value.newBuilder().setNumberValue(1)).addValues(Value.newBuilder().setNumberValue(Double.NEGATIVE_INFINITY)))))),
                "INVALID_ARGUMENT", "message.parts[0].data must hold finite numbers only"));
        rows.add(new Row("non-finite number in metadata: `{\"deep\":{\"n\":1e400}}` / `number_value=nan`",
                json("\"parts\":[{\"text\":\"hi\"}],\"metadata\":{\"deep\":{\"n\":1e400}}"),
                grpc(message().addParts(Part.newBuilder().setText("hi")).setMetadata(Struct.newBuilder().putFields("deep",
                        Value.newBuilder().setStructValue(Struct.newBuilder().putFields("n", nan)).build()))),
                "INVALID_ARGUMENT", "message.metadata must hold finite numbers only"));
        rows.add(new Row("non-finite number in a part's metadata: `-1e400` / `number_value=nan`",
                json("\"parts\":[{\"text\":\"hi\",\"metadata\":{\"n\":-1e400}}]"),
                grpc(message().addParts(Part.newBuilder().setText("hi").setMetadata(Struct.newBuilder().putFields("n", nan)))),
                "INVALID_ARGUMENT", "message.parts[0].metadata must hold finite numbers only"));
        Message.Builder empty = message();
        for (int i = 0; i < PARTS; i++) {
            empty.addParts(Part.getDefaultInstance());
        }
        rows.add(new Row("10,000 empty parts", json("\"parts\":[{}" + ",{}".repeat(PARTS - 1) + "]"), grpc(empty),
                "INVALID_ARGUMENT", "and " + (PARTS - 20) + " more"));
        rows.add(new Row("invalid UTF-8 in a text part", envelope -> bytes(envelope.replace("@", params("\"parts\":[{\"text\":\"caf\u00c3(\"}]"))),
                invalidUtf8(), "INVALID_ARGUMENT", null));
        rows.add(new Row("a byte order mark before the body",
                envelope -> bytes("\u00ef\u00bb\u00bf", envelope.replace("@", params("\"parts\":[{\"text\":\"hi\"}]"))), null,
                "INVALID_ARGUMENT", "byte order mark"));
        rows.add(new Row("`NaN` as a number", json("\"parts\":[{\"data\":{\"n\":NaN}}]"), null, "INVALID_ARGUMENT", "not one JSON value"));
        byte[] valid = grpc(message().addParts(Part.newBuilder().setText("hi")));
        byte[] trailing = new byte[valid.length + 2];
        System.arraycopy(valid, 0, trailing, 0, valid.length);
        trailing[valid.length] = (byte) 0xff; // a field key that never ends: not one protobuf message
        trailing[valid.length + 1] = (byte) 0xff;
        rows.add(new Row("something after the value: ` {}` / two bytes after the message",
                envelope -> bytes(envelope.replace("@", params("\"parts\":[{\"text\":\"hi\"}]")), " {}"), trailing, "INVALID_ARGUMENT", null));
        rows.add(new Row("a number for a string: `\"messageId\":12345` (the proto JSON mapping reads it as text)",
                envelope -> bytes(envelope.replace("@", "{\"message\":{\"messageId\":" + java.util.concurrent.ThreadLocalRandom.current().nextInt(1, 1_000_000_000)
                        + ",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"reply please\"}]}}")), null, "ACCEPTED", null));
        rows.add(new Row("another tenant in the body: `\"tenant\":\"someone-elses\"`",
                envelope -> bytes(envelope.replace("@", "{\"tenant\":\"someone-elses\"," + params("\"parts\":[{\"text\":\"hi\"}]").substring(1))),
                SendMessageRequest.newBuilder().setTenant("someone-elses").setMessage(message().addParts(Part.newBuilder().setText("hi")))
                        .build().toByteArray(), "INVALID_ARGUMENT", "tenant must be the caller's own tenant or empty"));
        return rows;
    }

    private static Message.Builder message() {
        return Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER);
    }

    /** SendMessage params holding a message with these fields besides its id and role. */
    private static String params(String fields) {
        return "{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\"," + fields + "}}";
    }

    private static Function<String, byte[]> json(String fields) {
        return envelope -> bytes(envelope.replace("@", params(fields)));
    }

    private static byte[] grpc(Message.Builder message) {
        return SendMessageRequest.newBuilder().setMessage(message).build().toByteArray();
    }

    /** A SendMessage whose text part holds "caf" then 0xC3 0x28: a lead byte without its continuation. */
    private static byte[] invalidUtf8() {
        byte[] request = grpc(message().addParts(Part.newBuilder().setText("caf\u00e9")));
        for (int i = 0; i + 1 < request.length; i++) {
            if ((request[i] & 0xff) == 0xc3 && (request[i + 1] & 0xff) == 0xa9) {
                request[i + 1] = 0x28;
                return request;
            }
        }
        throw new AssertionError("no é in the request");
    }

    /** Each char one byte, so raw bytes (a BOM, invalid UTF-8) can be written as chars. */
    private static byte[] bytes(String... pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String piece : pieces) {
            out.writeBytes(piece.getBytes(StandardCharsets.ISO_8859_1));
        }
        return out.toByteArray();
    }

    private Said rest(byte[] body) {
        Response response = RawCalls.http(BEARER).contentType("application/json").body(body).post("/message:send");
        int bytes = response.asByteArray().length;
        if (response.statusCode() == 200) {
            return new Said("ACCEPTED", bytes, "");
        }
        RawCalls.Answer answer = RawCalls.restError(response);
        return new Said(answer.status(), bytes, answer.message());
    }

    private Said jsonRpc(byte[] body) {
        Response response = RawCalls.http(BEARER).contentType("application/json").body(body).post("/");
        int bytes = response.asByteArray().length;
        if (response.jsonPath().get("result") != null) {
            return new Said("ACCEPTED", bytes, "");
        }
        RawCalls.Answer answer = RawCalls.jsonRpcError(response);
        return new Said(answer.status(), bytes, answer.message()); // named by JsonRpc's code table
    }

    private Said grpc(byte[] request) {
        StatusRuntimeException refusal = RawCalls.grpcRefusal(channels.channel(), SEND, request, RawCalls.grpcHeaders(BEARER));
        RawCalls.Answer answer = RawCalls.grpcError(refusal);
        int bytes = refusal.getStatus().getDescription().getBytes(StandardCharsets.UTF_8).length;
        Metadata trailers = refusal.getTrailers();
        if (trailers != null) {
            for (String key : trailers.keys()) {
                if (key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
                    for (byte[] value : trailers.getAll(Metadata.Key.of(key, Metadata.BINARY_BYTE_MARSHALLER))) {
                        bytes += value.length;
                    }
                } else if (!key.equals("grpc-message")) {
                    for (String value : trailers.getAll(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER))) {
                        bytes += value.length();
                    }
                }
            }
        }
        return new Said(answer.status(), bytes, answer.message());
    }

    private static String shown(Said said) {
        return said == null ? "n/a" : said.kind() + ", " + said.bytes() + " B";
    }
}
