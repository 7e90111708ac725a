package dev.a2atasks.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.proto.v1.AgentCard;

/** Reads what a client needs from a server's Agent Card; a card it cannot read is simply absent. */
final class AgentCardReader {

    private static final System.Logger LOG = System.getLogger(AgentCardReader.class.getName());

    private AgentCardReader() {
    }

    /** The well-known card of the origin (scheme, host, port) of an interface URL, whatever its path. */
    static URI wellKnown(URI interfaceUrl) {
        return URI.create(interfaceUrl.getScheme() + "://" + interfaceUrl.getRawAuthority() + "/.well-known/agent-card.json");
    }

    /** The catch-up skew the card at {@code card} publishes, if it can be read and declares one. */
    static Optional<Duration> catchUpSkew(HttpClient http, URI card, Duration timeout) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(card).timeout(timeout)
                    .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                LOG.log(Level.DEBUG, "Agent Card {0}: HTTP {1}; using the default skew", card, response.statusCode());
                return Optional.empty();
            }
            AgentCard.Builder parsed = AgentCard.newBuilder();
            JsonFormat.parser().ignoringUnknownFields().merge(response.body(), parsed);
            return CatchUpHint.skew(parsed.build());
        } catch (IOException | IllegalArgumentException e) { // InvalidProtocolBufferException is an IOException
            LOG.log(Level.DEBUG, "Agent Card {0} unreadable ({1}); using the default skew", card, e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
