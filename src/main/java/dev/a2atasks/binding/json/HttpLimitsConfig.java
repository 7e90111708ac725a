package dev.a2atasks.binding.json;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Limits on the HTTP request line and headers that are answered with an A2A error body (414,
 * 431). Keep them below the HTTP codec's limits ({@code quarkus.http.limits.max-initial-line-length},
 * {@code quarkus.http.limits.max-header-size}): what the codec refuses gets no body at all.
 */
@ConfigMapping(prefix = "a2a.http.limits")
public interface HttpLimitsConfig {

    /** Longest request target (path and query) served. */
    @WithDefault("16384")
    int maxRequestLineChars();

    /** Largest header block served, in bytes (names, values and separators). */
    @WithDefault("16384")
    int maxHeaderBytes();
}
