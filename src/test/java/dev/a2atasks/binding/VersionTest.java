package dev.a2atasks.binding;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URL;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** A2A-Version "1.0" is served; anything else, and an absent version (0.3 per spec §3.6.2), is VersionNotSupported. */
@QuarkusTest
class VersionTest {

    @TestHTTPResource("/")
    URL root;

    private final String bearer = "Bearer " + Tokens.valid("VersionTest", "alice");

    @Test
    void httpJson() {
        given().header("Authorization", bearer).header("A2A-Version", "1.0").get("/tasks").then().statusCode(200);
        given().header("Authorization", bearer).queryParam("A2A-Version", "1.0").get("/tasks").then().statusCode(200);
        given().header("Authorization", bearer).header("A2A-Version", "1.0.3").get("/tasks").then().statusCode(200);
        given().header("Authorization", bearer).header("A2A-Version", "0.3").get("/tasks").then().statusCode(400)
                .body("error.status", equalTo("FAILED_PRECONDITION"))
                .body("error.message", equalTo("A2A version 0.3 is not supported; this server speaks 1.0"))
                .body("error.details[0].reason", equalTo("VERSION_NOT_SUPPORTED"))
                .body("error.details[0].metadata.requestedVersion", equalTo("0.3"));
        given().header("Authorization", bearer).get("/tasks").then().statusCode(400)
                .body("error.details[0].reason", equalTo("VERSION_NOT_SUPPORTED"));
    }

    @Test
    void jsonRpc() {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\"}";
        given().header("Authorization", bearer).contentType("application/json").header("A2A-Version", "1.0").body(call)
                .post("/").then().statusCode(200).body("result.totalSize", equalTo(0));
        given().header("Authorization", bearer).contentType("application/json").header("A2A-Version", "2.0").body(call)
                .post("/").then().statusCode(200).body("error.code", equalTo(-32009))
                .body("error.data[0].reason", equalTo("VERSION_NOT_SUPPORTED"));
        given().header("Authorization", bearer).contentType("application/json").body(call)
                .post("/").then().statusCode(200).body("error.code", equalTo(-32009));
    }

    @Test
    void grpc() throws InterruptedException {
        try (GrpcChannels channels = new GrpcChannels(root)) {
            String token = Tokens.valid("VersionTest", "alice");
            assertEquals(0, channels.stub(token, "1.0").listTasks(ListTasksRequest.getDefaultInstance()).getTotalSize());
            for (String version : new String[] { "0.3", null }) {
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                        () -> channels.stub(token, version).listTasks(ListTasksRequest.getDefaultInstance()));
                assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
                assertEquals("VERSION_NOT_SUPPORTED", GrpcChannels.errorInfo(e).getReason());
            }
        }
    }
}
