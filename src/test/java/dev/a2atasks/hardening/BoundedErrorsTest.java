package dev.a2atasks.hardening;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A request that is wrong in 10,000 places gets an answer of a few KB on every binding: 20
 * violations listed, the rest counted. Over gRPC that is an INVALID_ARGUMENT the client can read,
 * where the full list made a trailer too large to send (the client saw RST_STREAM).
 */
@QuarkusTest
class BoundedErrorsTest extends BindingTest {

    private static final int PARTS = 10_000;

    @Test
    void tenThousandEmptyPartsGetASmallInvalidParamsOnEveryBinding() throws Exception {
        String bearer = Tokens.valid("BoundedErrorsTest", "alice");
        String parts = "{}" + ",{}".repeat(PARTS - 1);
        String message = "{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[" + parts + "]}";

        Response rest = given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                .body("{\"message\":" + message + "}").post(root + "message:send");
        assertEquals(400, rest.statusCode());
        assertTrue(rest.asByteArray().length <= 16 * 1024, rest.asByteArray().length + " bytes");
        assertTrue(rest.asString().contains("and " + (PARTS - 20) + " more"), rest.asString());

        Response rpc = given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":" + message + "}}").post(root);
        assertEquals(-32602, rpc.jsonPath().getInt("error.code"));
        assertTrue(rpc.asByteArray().length <= 16 * 1024, rpc.asByteArray().length + " bytes");

        Message.Builder empty = Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER);
        for (int i = 0; i < PARTS; i++) {
            empty.addParts(Part.getDefaultInstance());
        }
        try (GrpcChannels channels = new GrpcChannels(root)) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> channels.stub(bearer).sendMessage(SendMessageRequest.newBuilder().setMessage(empty).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.toString());
            assertTrue(e.getStatus().getDescription().contains("and " + (PARTS - 20) + " more"), e.getStatus().getDescription());
        }
    }
}
