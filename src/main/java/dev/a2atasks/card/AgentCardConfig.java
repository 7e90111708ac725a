package dev.a2atasks.card;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What the Agent Card says about this deployment. */
@ConfigMapping(prefix = "a2a.card")
public interface AgentCardConfig {

    @WithDefault("a2a-tasks")
    String name();

    @WithDefault("System of record for A2A tasks: lists and reads tasks with keyset paging over gRPC, HTTP+JSON and JSON-RPC.")
    String description();

    /** The card's version; defaults to the application's. */
    @WithDefault("${quarkus.application.version:0.1.0}")
    String version();

    /** Base URL clients reach this service at (scheme, host, port, optional path), without a trailing slash. */
    @WithDefault("http://localhost:8080")
    String publicUrl();

    /** host:port of the gRPC endpoint; defaults to the public URL's host and port (one server serves both). */
    Optional<String> grpcAddress();

    Optional<String> documentationUrl();

    Provider provider();

    /**
     * The catch-up skew published in the card's catch-up extension (docs/api.md, "Commit lag"): the
     * commit-lag bound (500 ms) plus room for clock steps. Clients and mirrors that read the card
     * use it as their default skew.
     */
    @WithDefault("2s")
    Duration catchUpSkew();

    /** Seconds clients may cache the card. */
    @WithDefault("300")
    int maxAgeSeconds();

    interface Provider {
        @WithDefault("a2a-tasks")
        String organization();

        @WithDefault("https://a2a-tasks.dev")
        String url();
    }
}
