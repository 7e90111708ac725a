package dev.a2atasks.ratelimit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/**
 * {@code a2a.rate-limit.*}: on or off, and a burst and sustained rate per request class. The
 * defaults live in application.properties (docs/operations.md, "Rate limits" says why each is what it is).
 */
@ConfigMapping(prefix = "a2a.rate-limit")
public interface RateLimitConfig {

    /** Off: every request passes and no bucket is kept. */
    @WithDefault("true")
    boolean enabled();

    /**
     * Share each caller's buckets among all replicas through PostgreSQL (leased in batches); by
     * default every replica limits on its own.
     */
    @WithDefault("false")
    boolean shared();

    /**
     * Streams one caller may hold open in this process ({@link OpenStreams}); 0: no bound.
     * Applies whether or not the rate limits are enabled: it bounds memory, not rates.
     */
    @WithName("max-open-streams")
    @WithDefault("100")
    int maxOpenStreams();

    @WithName("walk-start")
    ClassLimit walkStart();

    ClassLimit page();

    ClassLimit get();

    ClassLimit write();

    ClassLimit other();

    /** One class's limit; {@code burst = 0} leaves the class unlimited. */
    interface ClassLimit {
        int burst();

        @WithName("per-second")
        double perSecond();
    }
}
