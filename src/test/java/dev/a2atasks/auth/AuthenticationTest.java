package dev.a2atasks.auth;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URL;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.a2atasks.proto.v1.GetExtendedAgentCardRequest;
import dev.a2atasks.proto.v1.SendMessageRequest;
import com.google.rpc.ErrorInfo;

import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** Both bindings refuse requests without valid credentials and let valid ones through, over real loopback. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthenticationTest {

    @TestHTTPResource("/")
    URL root;

    GrpcChannels grpc;

    @BeforeAll
    void openChannel() {
        grpc = new GrpcChannels(root);
    }

    @AfterAll
    void closeChannel() throws InterruptedException {
        grpc.close();
    }

    static Stream<Arguments> refusedTokens() {
        return Stream.of(
                Arguments.of("no token", null, "Authentication required"),
                Arguments.of("wrong signature", Tokens.wronglySigned("alice"), "Bearer token signature is invalid"),
                Arguments.of("expired", Tokens.expired("alice"), "Bearer token has expired"),
                Arguments.of("wrong issuer", Tokens.wrongIssuer("alice"), "Bearer token issuer is not accepted"),
                Arguments.of("garbage", "not-a-jwt", "Bearer token is invalid"));
    }

    @ParameterizedTest(name = "HTTP refuses {0}")
    @MethodSource("refusedTokens")
    void httpRefuses(String name, String token, String message) {
        var request = given().urlEncodingEnabled(false).header("A2A-Version", "1.0").contentType("application/json").body("{}");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        request.when().post("/message:send")
                .then().statusCode(401)
                .header("WWW-Authenticate", "Bearer")
                .body("error.code", equalTo(401))
                .body("error.status", equalTo("UNAUTHENTICATED"))
                .body("error.message", org.hamcrest.Matchers.startsWith(message));
    }

    @ParameterizedTest(name = "gRPC refuses {0}")
    @MethodSource("refusedTokens")
    void grpcRefuses(String name, String token, String message) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> grpc.stub(token).sendMessage(SendMessageRequest.getDefaultInstance()));
        assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
        org.junit.jupiter.api.Assertions.assertTrue(e.getStatus().getDescription().startsWith(message),
                e.getStatus().getDescription());
    }

    @Test
    void httpWithValidTokenReachesTheServiceAndGetsUnsupportedOperation() {
        given().urlEncodingEnabled(false).header("A2A-Version", "1.0").header("Authorization", "Bearer " + Tokens.valid("alice"))
                .contentType("application/json").body("{}")
                .when().get("/extendedAgentCard")
                .then().statusCode(400)
                .contentType("application/a2a+json")
                .body("error.status", equalTo("FAILED_PRECONDITION"))
                .body("error.message", equalTo("GetExtendedAgentCard is not supported by this server"))
                .body("error.details[0].'@type'", equalTo("type.googleapis.com/google.rpc.ErrorInfo"))
                .body("error.details[0].reason", equalTo("UNSUPPORTED_OPERATION"))
                .body("error.details[0].domain", equalTo("a2a-protocol.org"));
    }

    @Test
    void httpTenantPrefixedRouteIsServedToo() {
        given().urlEncodingEnabled(false).header("A2A-Version", "1.0").header("Authorization", "Bearer " + Tokens.valid("alice"))
                .contentType("application/json").body("{}")
                .when().get("/acme/extendedAgentCard")
                .then().statusCode(400)
                .body("error.details[0].reason", equalTo("UNSUPPORTED_OPERATION"));
    }

    @Test
    void grpcWithValidTokenReachesTheServiceAndGetsUnsupportedOperation() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> grpc.stub(Tokens.valid("alice")).getExtendedAgentCard(GetExtendedAgentCardRequest.getDefaultInstance()));
        assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        assertEquals("GetExtendedAgentCard is not supported by this server", e.getStatus().getDescription());
        ErrorInfo info = GrpcChannels.errorInfo(e);
        assertEquals("UNSUPPORTED_OPERATION", info.getReason());
        assertEquals("a2a-protocol.org", info.getDomain());
    }
}
