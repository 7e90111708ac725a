package dev.a2atasks.card;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.proto.v1.AgentCard;
import io.quarkus.test.junit.QuarkusTest;

/** The Agent Card is public, lists every binding, and is cacheable by ETag. */
@QuarkusTest
class AgentCardTest {

    @Test
    void cardListsEveryBindingAndTheBearerScheme() throws Exception {
        String body = given().get("/.well-known/agent-card.json").then().statusCode(200)
                .contentType("application/json")
                .header("Cache-Control", equalTo("public, max-age=300"))
                .body("supportedInterfaces.protocolBinding", contains("JSONRPC", "HTTP+JSON", "GRPC"))
                .body("supportedInterfaces.url", contains("http://localhost:8080/", "http://localhost:8080", "localhost:8080"))
                .body("supportedInterfaces.protocolVersion", contains("1.0", "1.0", "1.0"))
                .body("capabilities.streaming", equalTo(true))
                .body("capabilities.pushNotifications", equalTo(true))
                .body("capabilities.extensions[0].uri", equalTo("https://a2a-tasks.dev/extensions/catch-up/v1"))
                .body("defaultOutputModes", contains("text/plain"))
                .body("securitySchemes.bearer.httpAuthSecurityScheme.scheme", equalTo("Bearer"))
                .body("securitySchemes.bearer.httpAuthSecurityScheme.bearerFormat", equalTo("JWT"))
                .body("securityRequirements[0].schemes", hasKey("bearer"))
                .body("skills[0].id", equalTo("task-store"))
                .extract().asString();
        AgentCard.Builder card = AgentCard.newBuilder();
        JsonFormat.parser().merge(body, card); // strict ProtoJSON of lf.a2a.v1.AgentCard
        assertEquals("a2a-tasks", card.getName());
        // The catch-up extension, optional, with the default skew and the commit-lag bound (docs/api.md, "Commit lag").
        assertEquals(java.util.Optional.of(java.time.Duration.ofSeconds(2)), dev.a2atasks.client.CatchUpHint.skew(card.build()));
        assertEquals(500.0, card.getCapabilities().getExtensions(0).getParams()
                .getFieldsOrThrow(dev.a2atasks.client.CatchUpHint.COMMIT_LAG_BOUND_MILLIS).getNumberValue());
        assertEquals(false, card.getCapabilities().getExtensions(0).getRequired());
        // History paging (issue 14): optional, with its page sizes.
        var paging = card.getCapabilities().getExtensions(1);
        assertEquals(dev.a2atasks.client.HistoryPaging.URI, paging.getUri());
        assertEquals(false, paging.getRequired());
        assertEquals(java.util.OptionalInt.of(100), dev.a2atasks.client.HistoryPaging.maxPageSize(card.build()));
        assertEquals(50.0, paging.getParams().getFieldsOrThrow(dev.a2atasks.client.HistoryPaging.DEFAULT_PAGE_SIZE).getNumberValue());
    }

    @Test
    void etagRevalidation() {
        String etag = given().get("/.well-known/agent-card.json").then().statusCode(200).extract().header("ETag");
        given().header("If-None-Match", etag).get("/.well-known/agent-card.json").then().statusCode(304)
                .header("ETag", etag).body(equalTo(""));
        given().header("If-None-Match", "\"something-else\"").get("/.well-known/agent-card.json").then().statusCode(200);
    }

    @Test
    void lastModifiedRevalidationWhenNoETagIsSent() {
        String modified = given().get("/.well-known/agent-card.json").then().statusCode(200).extract().header("Last-Modified");
        java.time.Instant at = java.time.ZonedDateTime.parse(modified, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        given().header("If-Modified-Since", modified).get("/.well-known/agent-card.json").then().statusCode(304)
                .header("Last-Modified", modified);
        String before = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(at.minusSeconds(1).atZone(java.time.ZoneOffset.UTC));
        given().header("If-Modified-Since", before).get("/.well-known/agent-card.json").then().statusCode(200);
        given().header("If-Modified-Since", "yesterday").get("/.well-known/agent-card.json").then().statusCode(200);
        // The ETag decides when both are sent.
        given().header("If-None-Match", "\"something-else\"").header("If-Modified-Since", modified)
                .get("/.well-known/agent-card.json").then().statusCode(200);
    }
}
