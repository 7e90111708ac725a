package dev.a2atasks.card;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code GET /.well-known/agent-card.json}: public, cacheable, revalidated by ETag (spec §8.2, §8.6). */
@Path("/.well-known/agent-card.json")
public class AgentCardResource {

    private final AgentCards cards;
    private final String cacheControl;

    AgentCardResource(AgentCards cards, AgentCardConfig config) {
        this.cards = cards;
        this.cacheControl = "public, max-age=" + config.maxAgeSeconds();
    }

    @GET
    public Response card(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        if (ifNoneMatch != null && matches(ifNoneMatch, cards.etag())) {
            return Response.notModified().header(HttpHeaders.ETAG, cards.etag()).header(HttpHeaders.CACHE_CONTROL, cacheControl).build();
        }
        return Response.ok(cards.json(), MediaType.APPLICATION_JSON)
                .header(HttpHeaders.ETAG, cards.etag())
                .header(HttpHeaders.CACHE_CONTROL, cacheControl)
                .build();
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
