package dev.a2atasks.ratelimit;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.smallrye.mutiny.Uni;

/**
 * One replica's side of limits shared by all replicas. The shared bucket (a row per caller and
 * class, see {@link SharedBuckets}) is the authority; a replica takes a small batch of tokens from
 * it in one short transaction and spends them from memory, so most requests cost no database
 * work. A batch is about a tenth of a second of the class's rate (one token for walk starts), and
 * what is left of it after {@link #LEASE_LIFETIME} is dropped, never returned: the replicas
 * together admit at most the shared limit, slightly less when batches go unused.
 *
 * <p>When the shared bucket cannot be reached, this replica applies its own per-process limits
 * ({@code fallback}) instead: a database problem never turns into a refusal of everyone.
 */
public final class LeasedLimiter {

    /** A batch taken from the shared bucket: tokens granted (0: none left), and then how long until one is. */
    public record Lease(int granted, long waitNanos) {
    }

    /** Takes up to {@code want} tokens from the shared bucket of this caller and class. */
    @FunctionalInterface
    public interface Lender {
        Uni<Lease> lease(String tenant, String subject, RequestClass requestClass, RateLimiter.Limit limit, int want);
    }

    static final Duration LEASE_LIFETIME = Duration.ofSeconds(1);
    private static final int SWEEP_EVERY = 4096;

    private record Key(String tenant, String subject, RequestClass requestClass) {
    }

    /** Tokens of a lease not spent yet, and until when they may be. */
    private static final class Grant {
        private int remaining;
        private long expiresAt;

        synchronized boolean tryTake(long now) {
            if (remaining > 0 && now - expiresAt < 0) {
                remaining--;
                return true;
            }
            return false;
        }

        synchronized void add(int tokens, long now) {
            if (now - expiresAt >= 0) {
                remaining = 0;
            }
            remaining += tokens;
            expiresAt = now + LEASE_LIFETIME.toNanos();
        }

        synchronized boolean expired(long now) {
            return remaining == 0 || now - expiresAt >= 0;
        }
    }

    private final Map<RequestClass, RateLimiter.Limit> limits;
    private final Lender lender;
    private final RateLimiter fallback;
    private final Consumer<Throwable> lenderFailed;
    private final Runnable lenderAnswered;
    private final Map<Key, Grant> grants = new ConcurrentHashMap<>();
    private final AtomicLong acquisitions = new AtomicLong();

    /**
     * @param lenderFailed   told of each failed lease (the request then goes to {@code fallback})
     * @param lenderAnswered told of each lease that got an answer (for "back again" logging)
     */
    public LeasedLimiter(Map<RequestClass, RateLimiter.Limit> limits, Lender lender, Consumer<Throwable> lenderFailed,
            Runnable lenderAnswered) {
        this.limits = Map.copyOf(limits);
        this.lender = lender;
        this.fallback = new RateLimiter(limits);
        this.lenderFailed = lenderFailed;
        this.lenderAnswered = lenderAnswered;
    }

    /** The batch leased at once: a tenth of a second of the rate, at most a tenth of the burst, at least 1. */
    static int batch(RateLimiter.Limit limit) {
        return (int) Math.max(1, Math.min(limit.burst() / 10, Math.ceil(limit.perSecond() / 10)));
    }

    /** The per-process limits alone, for while the shared buckets are known to be out of reach. */
    public Optional<Duration> acquireLocally(String tenant, String subject, RequestClass requestClass, long nowNanos) {
        return fallback.acquire(tenant, subject, requestClass, nowNanos);
    }

    /** Empty when the request may go ahead; else how long until it would pass. */
    public Uni<Optional<Duration>> acquire(String tenant, String subject, RequestClass requestClass, long nowNanos) {
        RateLimiter.Limit limit = limits.get(requestClass);
        if (limit == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        if (acquisitions.incrementAndGet() % SWEEP_EVERY == 0) {
            grants.entrySet().removeIf(e -> e.getValue().expired(nowNanos));
        }
        Grant grant = grants.computeIfAbsent(new Key(tenant, subject, requestClass), k -> new Grant());
        if (grant.tryTake(nowNanos)) {
            return Uni.createFrom().item(Optional.empty());
        }
        return lender.lease(tenant, subject, requestClass, limit, batch(limit))
                .map(lease -> {
                    lenderAnswered.run();
                    if (lease.granted() == 0) {
                        return Optional.of(Duration.ofNanos(Math.max(1, lease.waitNanos())));
                    }
                    grant.add(lease.granted() - 1, nowNanos); // one is this request's
                    return Optional.<Duration>empty();
                })
                .onFailure().recoverWithItem(failure -> {
                    lenderFailed.accept(failure);
                    return fallback.acquire(tenant, subject, requestClass, nowNanos);
                });
    }
}
