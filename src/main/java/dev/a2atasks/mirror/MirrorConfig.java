package dev.a2atasks.mirror;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

/**
 * Remote A2A agents whose tasks are kept in sync locally: {@code a2a.mirror.<name>.*}. None by
 * default, so the job does nothing unless configured.
 */
@ConfigMapping(prefix = "a2a.mirror")
public interface MirrorConfig {

    @WithParentName
    Map<String, Source> sources();

    interface Source {
        /** Off switch for one source without removing its configuration. */
        @WithDefault("true")
        boolean enabled();

        /** gRPC: host:port; HTTP+JSON: base URL (the Agent Card's interface url). */
        String endpoint();

        /** {@code grpc} or {@code http}. */
        @WithDefault("grpc")
        String binding();

        /** gRPC without TLS (local development only). */
        @WithDefault("false")
        boolean plaintext();

        /** Bearer token presented to the source. */
        String bearerToken();

        /** Time between syncs. */
        @WithDefault("60s")
        Duration interval();

        /** Local tenant and owner the mirrored tasks are stored under. */
        @WithDefault("mirror")
        String tenant();

        String owner();

        /** Newest messages fetched per changed task (0: status only). */
        @WithDefault("0")
        int historyLength();

        @WithDefault("false")
        boolean includeArtifacts();

        /** Overlap below the high-water mark: covers equal timestamps and clock steps on the source. */
        @WithDefault("2s")
        Duration skew();

        @WithDefault("100")
        int pageSize();

        Optional<Duration> timeout();
    }
}
