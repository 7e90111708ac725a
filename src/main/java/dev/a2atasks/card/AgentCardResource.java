package dev.a2atasks.card;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /.well-known/agent-card.json}: public, cacheable, revalidated by ETag (spec §8.2,
 * §8.6). {@code Last-Modified} is when this process built the card (its start): the ETag, a hash
 * of the content, is the validator that agrees across replicas, and wins when a client sends both.
 */
@Path("/.well-known/agent-card.json")
public class AgentCardResource {

    private final AgentCards cards;
    private final String cacheControl;

    AgentCardResource(AgentCards cards, AgentCardConfig config) {
        this.cards = cards;
        this.cacheControl = "public, max-age=" + config.maxAgeSeconds();
    }

    @GET
    public Response card(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch,
            @HeaderParam(HttpHeaders.IF_MODIFIED_SINCE) String ifModifiedSince) {
        boolean unchanged = ifNoneMatch != null ? matches(ifNoneMatch, cards.etag()) : notModifiedSince(ifModifiedSince);
        Response.ResponseBuilder response = unchanged ? Response.notModified() : Response.ok(cards.json(), MediaType.APPLICATION_JSON);
        return response.header(HttpHeaders.ETAG, cards.etag())
                .header(HttpHeaders.LAST_MODIFIED, HTTP_DATE.format(cards.builtAt()))
                .header(HttpHeaders.CACHE_CONTROL, cacheControl)
                .build();
    }

    private static final java.time.format.DateTimeFormatter HTTP_DATE = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME
            .withZone(java.time.ZoneOffset.UTC);

    /** If-Modified-Since at or after the card's build time (whole seconds, as HTTP dates go); an unreadable date is ignored. */
    private boolean notModifiedSince(String ifModifiedSince) {
        if (ifModifiedSince == null) {
            return false;
        }
        try {
            java.time.Instant since = java.time.ZonedDateTime.parse(ifModifiedSince.trim(), java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
            return !since.isBefore(cards.builtAt());
        } catch (java.time.format.DateTimeParseException e) {
            return false;
        }
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*") || tag.equals(etag) || tag.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }
}
