package dev.a2atasks.ratelimit;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import dev.a2atasks.jobs.PeriodicJob;
import dev.a2atasks.auth.Caller;
import dev.a2atasks.db.DatabaseAvailability;
import dev.a2atasks.error.A2AException;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The service's rate limits, checked by the port before any operation runs. By default per
 * process: each replica keeps its own buckets in memory. With {@code a2a.rate-limit.shared=true}
 * the replicas share one bucket per caller and class in PostgreSQL, leased a batch at a time
 * ({@link LeasedLimiter}); if those cannot be reached, each replica falls back to its own limits.
 */
@ApplicationScoped
public class RateLimits {

    private static final Logger LOG = Logger.getLogger(RateLimits.class);
    private static final Duration SWEEP_INTERVAL = Duration.ofMinutes(10);

    private final RateLimiter local; // per-process mode
    private final LeasedLimiter shared; // shared mode
    private final SharedBuckets buckets;
    private final DatabaseAvailability database;
    private final Duration idle;
    private final AtomicBoolean sharedUnreachable = new AtomicBoolean();
    private PeriodicJob sweeper;

    RateLimits(RateLimitConfig config, SharedBuckets buckets, DatabaseAvailability database) {
        Map<RequestClass, RateLimiter.Limit> limits = limits(config);
        this.local = config.enabled() && !config.shared() ? new RateLimiter(limits) : null;
        this.shared = config.enabled() && config.shared()
                ? new LeasedLimiter(limits, buckets::lease, this::sharedFailed, this::sharedAnswered) : null;
        this.buckets = buckets;
        this.database = database;
        // A row idle this long is full again: forgetting it changes nothing.
        double refill = limits.values().stream().mapToDouble(l -> l.burst() / l.perSecond()).max().orElse(0);
        this.idle = Duration.ofSeconds((long) Math.ceil(refill)).plusMinutes(1);
    }

    /** Takes one request of this class from the caller's allowance, or fails with RateLimited. */
    public Uni<Void> check(Caller caller, RequestClass requestClass) {
        if (local != null) {
            return answer(requestClass, local.acquire(caller.tenant(), caller.subject(), requestClass, System.nanoTime()));
        }
        if (shared == null) {
            return Uni.createFrom().voidItem();
        }
        long now = System.nanoTime();
        if (database.isDown()) {
            return answer(requestClass, shared.acquireLocally(caller.tenant(), caller.subject(), requestClass, now));
        }
        return shared.acquire(caller.tenant(), caller.subject(), requestClass, now).chain(wait -> answer(requestClass, wait));
    }

    private static Uni<Void> answer(RequestClass requestClass, Optional<Duration> wait) {
        if (wait.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        // Whole milliseconds, rounded up: a caller that waits exactly this long finds its token there.
        return Uni.createFrom().failure(new A2AException.RateLimited(requestClass.key(),
                Duration.ofMillis((wait.get().toNanos() + 999_999) / 1_000_000)));
    }

    private void sharedFailed(Throwable failure) {
        if (sharedUnreachable.compareAndSet(false, true)) {
            LOG.warnf("Shared rate limits cannot be reached (%s); this replica applies its own limits until they can",
                    failure.getMessage());
        }
    }

    private void sharedAnswered() {
        if (sharedUnreachable.compareAndSet(true, false)) {
            LOG.info("Shared rate limits reachable again");
        }
    }

    void start(@Observes StartupEvent ignored) {
        if (shared == null) {
            return;
        }
        sweeper = PeriodicJob.every("a2a-rate-limit-sweeper", SWEEP_INTERVAL, () -> {
            try {
                VertxContextSupport.subscribeAndAwait(() -> buckets.forgetIdle(idle));
            } catch (Throwable e) {
                LOG.debugf("Idle rate-limit buckets not swept this time: %s", e.getMessage());
            }
        });
    }

    void stop(@Observes ShutdownEvent ignored) {
        if (sweeper != null) {
            sweeper.stop(Duration.ofSeconds(2)); // a sweep in progress is one short DELETE: let it end rather than cut it
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
