package dev.a2atasks.mirror;

import java.nio.file.Path;
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

        /** gRPC: host:port; HTTP+JSON: base URL (the Agent Card's interface url, path included). */
        String endpoint();

        /** {@code grpc} or {@code http}. */
        @WithDefault("grpc")
        String binding();

        /** gRPC without TLS (local development only). */
        @WithDefault("false")
        boolean plaintext();

        /** Bearer token presented to the source. Prefer {@link #bearerTokenFile()} in production. */
        Optional<String> bearerToken();

        /** A file holding the bearer token, read again whenever it changes: a rotated token needs no restart. */
        Optional<Path> bearerTokenFile();

        /**
         * The source's Agent Card, read for its published catch-up skew when {@link #skew()} is unset.
         * Defaults to {@code /.well-known/agent-card.json} at the HTTP endpoint's origin; a gRPC source
         * has none unless this is set.
         */
        Optional<String> agentCard();

        /** Time between syncs. */
        @WithDefault("60s")
        Duration interval();

        /** Local tenant the mirrored tasks are stored under; unset or empty: "" (no tenant). */
        Optional<String> tenant();

        /** Local owner (subject) the mirrored tasks are stored under. */
        String owner();

        /** Newest messages fetched per changed task (0: status only). Ignored with {@code history=full}. */
        @WithDefault("0")
        int historyLength();

        /**
         * {@code tail}: each changed task's newest {@link #historyLength()} messages (a gap is marked
         * when more arrived between syncs). {@code full}: every task's whole transcript, through the
         * source's history-paging extension (ListTaskMessages), which the source must offer.
         */
        @WithDefault("tail")
        String history();

        /** Messages per ListTaskMessages page with {@code history=full}, 1 to the source's maxPageSize. */
        @WithDefault("100")
        int historyPageSize();

        @WithDefault("false")
        boolean includeArtifacts();

        /**
         * Overlap below the high-water mark (equal timestamps, commit lag and clock steps on the
         * source). Unset: the source's published skew, else 2 s.
         */
        Optional<Duration> skew();

        @WithDefault("100")
        int pageSize();

        Optional<Duration> timeout();

        /** Time between full reconciliations (a whole walk of the source that also finds deleted tasks); 0: never. */
        @WithDefault("24h")
        Duration reconcileInterval();

        /** What a reconciliation does with copies whose source task is gone: {@code delete} or {@code mark}. */
        @WithDefault("delete")
        String onDeleted();

        /** The longest wait between attempts after repeated failures (and after refused credentials). */
        @WithDefault("5m")
        Duration maxBackoff();
    }
}
