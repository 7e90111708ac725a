package dev.a2atasks.hardening;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

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
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * JSON has no NaN or Infinity, yet a gRPC double can carry them and a JSON 1e400 overflows into
 * one. In a data part or in metadata, on every binding, they are refused as invalid params naming
 * the field: never a 500 or INTERNAL, never the string "Infinity" stored in their place.
 */
@QuarkusTest
class NonFiniteNumbersTest extends BindingTest {

    private static final String TENANT = "NonFiniteNumbersTest";

    @Test
    void overflowingNumbersInJsonAreInvalidParamsOnBothJsonBindings() {
        db.clearTenant(TENANT);
        String bearer = Tokens.valid(TENANT, "alice");
        String[][] bodies = { { "message.parts[0].data", "\"parts\":[{\"data\":{\"n\":1e400}}]" },
                { "message.parts[0].data", "\"parts\":[{\"data\":[1,-1e999]}]" },
                { "message.metadata", "\"parts\":[{\"text\":\"hi\"}],\"metadata\":{\"deep\":{\"n\":1e400}}" },
                { "message.parts[0].metadata", "\"parts\":[{\"text\":\"hi\",\"metadata\":{\"n\":-1e400}}]" } };
        for (String[] body : bodies) {
            String message = "{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\"," + body[1] + "}";
            JsonPath rest = given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                    .body("{\"message\":" + message + "}").post(root + "message:send").then().statusCode(400).extract().jsonPath();
            assertTrue(rest.getString("error.message").contains(body[0] + " must hold finite numbers only"), rest.prettify());
            JsonPath rpc = given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                    .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":" + message + "}}")
                    .post(root).then().statusCode(200).extract().jsonPath();
            assertEquals(-32602, rpc.getInt("error.code"), rpc.prettify());
            assertTrue(rpc.getString("error.message").contains(body[0] + " must hold finite numbers only"), rpc.prettify());
        }
        assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '" + TENANT + "'"), "nothing was written");
    }

    @Test
    void nanAndInfinityOverGrpcAreInvalidArgumentNamingTheField() throws Exception {
        String bearer = Tokens.valid(TENANT, "bob");
        try (GrpcChannels channels = new GrpcChannels(root)) {
            for (double bad : new double[] { Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY }) {
                Value number = Value.newBuilder().setNumberValue(bad).build();
                SendMessageRequest inData = request(Part.newBuilder().setData(Value.newBuilder().setStructValue(
                        Struct.newBuilder().putFields("n", number))).build(), Struct.getDefaultInstance());
                SendMessageRequest inMetadata = request(Part.newBuilder().setText("hi").build(), Struct.newBuilder().putFields("n", number).build());
                for (var pair : new Object[][] { { inData, "message.parts[0].data" }, { inMetadata, "message.metadata" } }) {
                    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                            () -> channels.stub(bearer).sendMessage((SendMessageRequest) pair[0]));
                    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.toString());
                    assertTrue(e.getStatus().getDescription().contains(pair[1] + " must hold finite numbers only"), e.toString());
                }
            }
        }
    }

    private static SendMessageRequest request(Part part, Struct metadata) {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString())
                .setRole(Role.ROLE_USER).addParts(part).setMetadata(metadata)).build();
    }
}
