package dev.a2atasks.paging;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "a2a.page-token")
public interface PagingConfig {

    /** How long a page token stays valid; a walk must fetch its next page within this. */
    @WithDefault("600s")
    Duration ttl();

    /** Id of the key that seals new tokens; required when more than one key is configured. */
    Optional<String> currentKeyId();

    /**
     * The key ring: key id -> base64 of a 16-, 24- or 32-byte AES key. Keys other than the
     * current one still open tokens; remove a key one TTL after it stopped being current.
     */
    Map<String, String> keys();

    /**
     * Start with a random key when none is configured (tokens then die with the process).
     * Default true in dev and test, false in production: there the service refuses to start.
     */
    @WithDefault("false")
    boolean allowGeneratedKey();
}
