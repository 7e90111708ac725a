package dev.a2atasks.ratelimit;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The service's rate limits, checked by the port before any operation runs. Per process: each
 * replica keeps its own buckets (README "Rate limits" says why none is shared through the database).
 */
@ApplicationScoped
public class RateLimits {

    private final RateLimiter limiter;

    RateLimits(RateLimitConfig config) {
        this.limiter = config.enabled() ? new RateLimiter(limits(config)) : null;
    }

    /** Takes one request of this class from the caller's allowance, or fails with RateLimited. */
    public void check(Caller caller, RequestClass requestClass) {
        if (limiter == null) {
            return;
        }
        Optional<Duration> wait = limiter.acquire(caller.tenant(), caller.subject(), requestClass, System.nanoTime());
        if (wait.isPresent()) {
            // Whole milliseconds, rounded up: a caller that waits exactly this long finds its token there.
            throw new A2AException.RateLimited(requestClass.key(), Duration.ofMillis((wait.get().toNanos() + 999_999) / 1_000_000));
        }
    }

    static Map<RequestClass, RateLimiter.Limit> limits(RateLimitConfig config) {
        Map<RequestClass, RateLimiter.Limit> limits = new EnumMap<>(RequestClass.class);
        put(limits, RequestClass.WALK_START, config.walkStart());
        put(limits, RequestClass.PAGE, config.page());
        put(limits, RequestClass.GET, config.get());
        put(limits, RequestClass.WRITE, config.write());
        put(limits, RequestClass.OTHER, config.other());
        return limits;
    }

    private static void put(Map<RequestClass, RateLimiter.Limit> limits, RequestClass requestClass, RateLimitConfig.ClassLimit limit) {
        if (limit.burst() > 0) {
            limits.put(requestClass, new RateLimiter.Limit(limit.burst(), limit.perSecond()));
        }
    }
}
