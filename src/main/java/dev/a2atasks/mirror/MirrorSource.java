package dev.a2atasks.mirror;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.client.GrpcTaskListing;
import dev.a2atasks.client.HttpTaskListing;
import dev.a2atasks.client.RemoteTasks;

/**
 * One remote agent to mirror and where its tasks go locally.
 *
 * @param skew         empty: the source's published skew, else {@link dev.a2atasks.client.TaskWalker#DEFAULT_SKEW}
 * @param deleteGone   what a reconciliation does with copies the source no longer has: delete (true) or mark
 * @param historyPageSize 0: history tails ({@code historyLength}); else whole transcripts, read with
 *                     ListTaskMessages in pages of this size
 */
public record MirrorSource(String name, String endpoint, String binding, boolean plaintext, TokenSource token,
        Optional<URI> agentCard, Caller localOwner, int historyLength, boolean includeArtifacts, Optional<Duration> skew,
        int pageSize, Duration timeout, Duration reconcileInterval, boolean deleteGone, Duration maxBackoff,
        int historyPageSize) {

    static MirrorSource of(String name, MirrorConfig.Source config) {
        String key = "a2a.mirror." + name + ".";
        if (config.bearerToken().isPresent() == config.bearerTokenFile().isPresent()) {
            throw new IllegalArgumentException(key + "bearer-token or " + key + "bearer-token-file must be set, one of them");
        }
        TokenSource token = config.bearerTokenFile().map(TokenSource::file)
                .orElseGet(() -> TokenSource.fixed(config.bearerToken().get()));
        if (!config.binding().equals("grpc") && !config.binding().equals("http")) {
            throw new IllegalArgumentException(key + "binding must be grpc or http, not " + config.binding());
        }
        if (!config.onDeleted().equals("delete") && !config.onDeleted().equals("mark")) {
            throw new IllegalArgumentException(key + "on-deleted must be delete or mark, not " + config.onDeleted());
        }
        if (!config.history().equals("tail") && !config.history().equals("full")) {
            throw new IllegalArgumentException(key + "history must be tail or full, not " + config.history());
        }
        if (config.historyPageSize() < 1) {
            throw new IllegalArgumentException(key + "history-page-size must be at least 1, not " + config.historyPageSize());
        }
        boolean full = config.history().equals("full");
        Optional<URI> card = config.agentCard().map(URI::create);
        return new MirrorSource(name, config.endpoint(), config.binding(), config.plaintext(), token, card,
                new Caller(config.tenant().orElse(""), config.owner()), full ? 0 : config.historyLength(), config.includeArtifacts(),
                config.skew(), config.pageSize(), config.timeout().orElse(Duration.ofSeconds(30)),
                config.reconcileInterval(), config.onDeleted().equals("delete"), config.maxBackoff(),
                full ? config.historyPageSize() : 0);
    }

    /** A source for code and tests: fixed token, published skew unless given, reconcile daily, deleting gone copies. */
    public static MirrorSource of(String name, String endpoint, String binding, boolean plaintext, String bearerToken,
            Caller localOwner, int historyLength, boolean includeArtifacts, Duration skew, int pageSize, Duration timeout) {
        return new MirrorSource(name, endpoint, binding, plaintext, TokenSource.fixed(bearerToken), Optional.empty(),
                localOwner, historyLength, includeArtifacts, Optional.ofNullable(skew), pageSize, timeout,
                Duration.ofHours(24), true, Duration.ofMinutes(5), 0);
    }

    /** The same source, copying whole transcripts (no tails) in ListTaskMessages pages of this size. */
    public MirrorSource withFullHistory(int historyPageSize) {
        return new MirrorSource(name, endpoint, binding, plaintext, token, agentCard, localOwner, 0,
                includeArtifacts, skew, pageSize, timeout, reconcileInterval, deleteGone, maxBackoff, historyPageSize);
    }

    /** Whether whole transcripts are copied (history paging) rather than tails. */
    public boolean fullHistory() {
        return historyPageSize > 0;
    }

    /** The same source, handling copies of deleted tasks the other way. */
    public MirrorSource markingGone() {
        return new MirrorSource(name, endpoint, binding, plaintext, token, agentCard, localOwner, historyLength,
                includeArtifacts, skew, pageSize, timeout, reconcileInterval, false, maxBackoff, historyPageSize);
    }

    RemoteTasks open() {
        return switch (binding) {
            case "grpc" -> new GrpcTaskListing(endpoint, plaintext, token, timeout, agentCard.orElse(null));
            case "http" -> new HttpTaskListing(URI.create(endpoint), token, timeout);
            default -> throw new IllegalArgumentException("a2a.mirror." + name + ".binding must be grpc or http, not " + binding);
        };
    }
}
