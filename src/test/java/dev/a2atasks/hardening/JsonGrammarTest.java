package dev.a2atasks.hardening;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * One JSON grammar on both JSON bindings, beyond what the bad-body table ({@link BadBodyTableTest})
 * shows: what the proto's JSON mapping allows (a number for a string) is stored as that text on
 * both, a tenant in the body is refused alike, and HTTP+JSON refuses a body tenant that differs
 * from its path's.
 */
@QuarkusTest
class JsonGrammarTest extends BindingTest {

    private static final String TENANT = "JsonGrammarTest";

    private static byte[] bytes(String... pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String piece : pieces) {
            out.writeBytes(piece.getBytes(StandardCharsets.ISO_8859_1)); // each char one byte: raw bytes can be written
        }
        return out.toByteArray();
    }

    private static String message(String parts) {
        return "{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[" + parts + "]}";
    }

    @Test
    void whatTheProtoMappingAllowsAndTheBodysTenantAreJudgedAlike() {
        db.clearTenant(TENANT + "-lenient");
        String bearer = Tokens.valid(TENANT + "-lenient", "alice");
        // A number where the proto has a string: the proto's JSON mapping reads it as that text, on both.
        String numeric = "{\"messageId\":12345,\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"reply please\"}]}";
        Response rest = post(bearer, "message:send", bytes("{\"message\":" + numeric + "}"));
        Response rpc = post(bearer, "", bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + numeric.replace("12345", "12346") + "}}"));
        assertEquals(200, rest.statusCode(), rest.asString());
        assertTrue(rpc.jsonPath().get("result") != null, rpc.asString());
        assertEquals(2, db.queryLong("SELECT count(*) FROM messages m JOIN tasks t ON t.pk = m.task_pk WHERE t.tenant = '" + TENANT
                + "-lenient' AND m.message_id IN ('12345', '12346')"), "stored as the text of the numbers");

        // Another tenant in the body: the same refusal on both, nothing written for it.
        String foreign = "{\"tenant\":\"someone-elses\",\"message\":" + message("{\"text\":\"hi\"}") + "}";
        Response restForeign = post(bearer, "message:send", bytes(foreign));
        Response rpcForeign = post(bearer, "", bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":" + foreign + "}"));
        assertTrue(restForeign.statusCode() >= 400 && restForeign.statusCode() < 500, restForeign.asString());
        assertEquals(restForeign.jsonPath().getString("error.message"), rpcForeign.jsonPath().getString("error.message"),
                restForeign.asString() + " / " + rpcForeign.asString());
        assertEquals(0, db.queryLong("SELECT count(*) FROM tasks WHERE tenant = 'someone-elses'"));
        // The path names the tenant: a different one in the body is refused; the same one is fine.
        Response conflicting = post(bearer, TENANT + "-lenient/message:send", bytes(foreign));
        assertEquals(400, conflicting.statusCode(), conflicting.asString());
        assertTrue(conflicting.jsonPath().getString("error.message").contains("tenant in the body"), conflicting.asString());
    }

    private Response post(String bearer, String path, byte[] body) {
        return given().contentType("application/json").header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer)
                .body(body).post(root + path);
    }
}
