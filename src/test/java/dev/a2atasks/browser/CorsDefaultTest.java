package dev.a2atasks.browser;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URL;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Safe by default: with no origin configured, no other origin is granted anything. */
@QuarkusTest
class CorsDefaultTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void noOriginIsAllowedUntilConfigured() {
        Response preflight = given().header("Origin", "https://app.example").header("Access-Control-Request-Method", "GET")
                .header("Access-Control-Request-Headers", "authorization,a2a-version").options(root + "tasks");
        assertNull(preflight.header("Access-Control-Allow-Origin"), preflight.headers().toString());

        Response call = given().header("Origin", "https://app.example").header("Authorization", "Bearer " + Tokens.valid("alice"))
                .get(root + "tasks");
        assertNull(call.header("Access-Control-Allow-Origin"), call.headers().toString());

        // Callers that are not browsers send no Origin and are not affected.
        given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + Tokens.valid("alice")).get(root + "tasks").then().statusCode(200);
        // Nor is the console, which is this origin.
        Response console = given().get(root + "console/");
        assertEquals(200, console.statusCode());
    }
}
