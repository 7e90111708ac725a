package dev.a2atasks.mirror;

import java.net.URI;
import java.time.Duration;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.client.GrpcTaskListing;
import dev.a2atasks.client.HttpTaskListing;
import dev.a2atasks.client.TaskListing;

/** One remote agent to mirror and where its tasks go locally. */
public record MirrorSource(String name, String endpoint, String binding, boolean plaintext, String bearerToken,
        Caller localOwner, int historyLength, boolean includeArtifacts, Duration skew, int pageSize, Duration timeout) {

    static MirrorSource of(String name, MirrorConfig.Source config) {
        return new MirrorSource(name, config.endpoint(), config.binding(), config.plaintext(), config.bearerToken(),
                new Caller(config.tenant(), config.owner()), config.historyLength(), config.includeArtifacts(),
                config.skew(), config.pageSize(), config.timeout().orElse(Duration.ofSeconds(30)));
    }

    TaskListing open() {
        return switch (binding) {
            case "grpc" -> new GrpcTaskListing(endpoint, plaintext, () -> bearerToken, timeout);
            case "http" -> new HttpTaskListing(URI.create(endpoint), () -> bearerToken, timeout);
            default -> throw new IllegalArgumentException("a2a.mirror." + name + ".binding must be grpc or http, not " + binding);
        };
    }
}
