package dev.a2atasks.mirror;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import dev.a2atasks.jobs.PeriodicJob;
import dev.a2atasks.metrics.ServiceMetrics;

import dev.a2atasks.client.ListingException;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Runs each configured, enabled mirror on its interval, one sync at a time per source, on its own
 * worker thread, and a full reconciliation every {@code reconcile-interval}. Nothing runs when no
 * mirror is configured (the default).
 *
 * <p>Failures: one log line each (a stack trace only for the unexpected), then exponential backoff
 * with jitter up to {@code max-backoff}. Refused credentials cannot heal by themselves, so they
 * wait the full {@code max-backoff} unless the token (file) changes first.
 */
@ApplicationScoped
public class MirrorJob {

    private static final Logger LOG = Logger.getLogger(MirrorJob.class);

    private final MirrorConfig config;
    private final Mirror mirror;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    private ScheduledExecutorService scheduler;
    private volatile boolean stopping;

    private final ServiceMetrics metrics;
    private final MirrorLeases leases;
    private final Duration lease;

    MirrorJob(MirrorConfig config, Mirror mirror, ServiceMetrics metrics, MirrorLeases leases,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "a2a.mirror-lease", defaultValue = "60s") Duration lease) {
        this.config = config;
        this.mirror = mirror;
        this.metrics = metrics;
        this.leases = leases;
        this.lease = lease;
    }

    /** Per source: where its failures and reconciliations stand. Touched by its own runs only. */
    private static final class State {
        final MirrorSource source;
        final Duration interval;
        volatile int failures; // read by status() from other threads
        Integer refusedToken; // fingerprint of the token the source refused; null when none was
        long refusedAtNanos;
        long nextReconcileNanos;
        volatile long attempts;
        volatile String lastFailure;

        State(MirrorSource source, Duration interval) {
            this.source = source;
            this.interval = interval;
        }
    }

    void start(@Observes StartupEvent event) {
        var enabled = config.sources().entrySet().stream().filter(e -> e.getValue().enabled()).toList();
        if (enabled.isEmpty()) {
            return;
        }
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(Math.min(enabled.size(), 4), runnable -> {
            Thread thread = new Thread(runnable, "a2a-mirror");
            thread.setDaemon(true);
            return thread;
        });
        pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // at shutdown only a sync in flight is waited for
        scheduler = pool;
        for (var entry : enabled) {
            MirrorSource source = MirrorSource.of(entry.getKey(), entry.getValue()); // bad settings fail start-up here
            State state = new State(source, entry.getValue().interval());
            state.nextReconcileNanos = System.nanoTime() + reconcileNanos(source);
            states.put(source.name(), state);
            scheduler.schedule(() -> run(state), 0, TimeUnit.MILLISECONDS);
            LOG.infof("Mirror %s: every %s from %s (%s, %s), stored as %s, reconciled every %s", source.name(),
                    state.interval, source.endpoint(), source.binding(), source.token(), source.localOwner(),
                    source.reconcileInterval().isZero() ? "never" : source.reconcileInterval());
        }
    }

    /**
     * Reconciles this source now, on the calling (worker) thread, after any sync of it in flight:
     * one run per source at a time, across replicas. Empty when no such source runs here, or
     * another replica is syncing it.
     */
    public Optional<Mirror.SyncResult> reconcileNow(String name) {
        State state = states.get(name);
        if (state == null) {
            return Optional.empty();
        }
        synchronized (state) {
            Optional<Mirror.SyncResult> result = leased(state.source, () -> mirror.reconcile(state.source));
            state.nextReconcileNanos = System.nanoTime() + reconcileNanos(state.source);
            return result;
        }
    }

    /**
     * How a source's job stands: syncs attempted since start-up (each call to the source counts;
     * waiting out refused credentials does not), failures in a row, and the last failure's message.
     */
    public record SourceStatus(long attempts, int consecutiveFailures, String lastFailure) {
    }

    public Optional<SourceStatus> status(String name) {
        return Optional.ofNullable(states.get(name)).map(s -> new SourceStatus(s.attempts, s.failures, s.lastFailure));
    }

    /** The configured source of this name, if it runs here. */
    public Optional<MirrorSource> source(String name) {
        return Optional.ofNullable(states.get(name)).map(s -> s.source);
    }

    private void run(State state) {
        if (stopping) {
            return;
        }
        Duration next;
        synchronized (state) {
            next = runOnce(state);
        }
        if (!stopping) {
            scheduler.schedule(() -> run(state), next.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One sync (or reconciliation) of a source; returns the delay until the next. */
    private Duration runOnce(State state) {
        MirrorSource source = state.source;
        Duration next = state.interval;
        Integer token = null; // the fingerprint of the token this attempt presents, taken before it does
        try {
            token = source.token().fingerprint();
            if (state.refusedToken != null && state.refusedToken.intValue() == token
                    && System.nanoTime() - state.refusedAtNanos < source.maxBackoff().toNanos()) {
                // Still the refused token: look again at the next interval, try again after max-backoff.
                return state.interval;
            } else {
                boolean reconcile = !source.reconcileInterval().isZero() && System.nanoTime() - state.nextReconcileNanos >= 0;
                Optional<Mirror.SyncResult> done = leased(source, () -> {
                    state.attempts++; // an attempt is one this replica makes: failed ones count, skipped rounds do not
                    return reconcile ? mirror.reconcile(source) : mirror.sync(source);
                });
                if (done.isEmpty()) {
                    return state.interval; // another replica syncs this source now; look again next interval
                }
                if (reconcile) {
                    state.nextReconcileNanos = System.nanoTime() + reconcileNanos(source);
                }
                if (state.failures > 0) {
                    LOG.infof("Mirror %s: recovered after %d failed attempts", source.name(), state.failures);
                }
                state.failures = 0;
                state.refusedToken = null;
            }
        } catch (RuntimeException e) {
            if (stopping) {
                LOG.infof("Mirror %s: sync stopped by shutdown; the next start resumes from the persisted mark", source.name());
                return next;
            }
            state.failures++;
            state.lastFailure = e.getMessage();
            metrics.mirrorSyncFailed(source.name());
            next = backoff(state);
            if (e instanceof ListingException listing) {
                if (listing.isCredentialError()) {
                    state.refusedToken = token;
                    state.refusedAtNanos = System.nanoTime();
                    next = state.interval; // only to look at the token again; the attempt waits (see above)
                    LOG.warnf("Mirror %s: credentials refused (%s); next attempt when the token changes or in %s",
                            source.name(), listing.getMessage(), source.maxBackoff());
                } else {
                    LOG.warnf("Mirror %s: sync failed (attempt %d): %s; retrying in %d ms", source.name(), state.failures,
                            listing.getMessage(), next.toMillis());
                }
            } else if (e instanceof java.io.UncheckedIOException io) { // the token file: one line says it all
                LOG.warnf("Mirror %s: sync failed (attempt %d): %s; retrying in %d ms", source.name(), state.failures,
                        io.getMessage(), next.toMillis());
            } else {
                LOG.warnf(e, "Mirror %s: sync failed unexpectedly (attempt %d); retrying in %d ms", source.name(),
                        state.failures, next.toMillis());
            }
        }
        return next;
    }

    /**
     * Runs one sync of a source holding its lease (renewed every third of {@code a2a.mirror-lease}
     * while it runs, given up after); empty, without running it, while another replica holds it.
     */
    private Optional<Mirror.SyncResult> leased(MirrorSource source, java.util.function.Supplier<Mirror.SyncResult> sync) {
        if (!leases.take(source.name(), lease)) {
            LOG.debugf("Mirror %s: another replica is syncing it; skipped", source.name());
            return Optional.empty();
        }
        long every = Math.max(1, lease.toMillis() / 3);
        PeriodicJob renewal = PeriodicJob.every("a2a-mirror-lease-" + source.name(), Duration.ofMillis(every), () -> {
            try {
                if (!leases.take(source.name(), lease)) {
                    LOG.warnf("Mirror %s: its lease was taken over during a sync (the sync outlived %s without renewal)",
                            source.name(), lease);
                }
            } catch (RuntimeException e) {
                LOG.warnf("Mirror %s: could not renew its lease: %s", source.name(), e.toString());
            }
        });
        try {
            return Optional.of(sync.get());
        } finally {
            renewal.stop(Duration.ofSeconds(5)); // a renewal in flight ends before the lease is given up
            try {
                leases.release(source.name());
            } catch (RuntimeException e) {
                LOG.debugf("Mirror %s: lease not given up (it expires by itself): %s", source.name(), e);
            }
        }
    }

    /**
     * interval × 2^(failures−1), capped at max-backoff, with "equal jitter" (half fixed, half
     * random) so replicas that failed together do not retry together.
     */
    static Duration backoff(Duration interval, int failures, Duration max) {
        long base = interval.toMillis() << Math.min(Math.max(failures - 1, 0), 20);
        long capped = Math.min(Math.max(base, 1), max.toMillis());
        return Duration.ofMillis(capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
    }

    private static Duration backoff(State state) {
        return backoff(state.interval, state.failures, state.source.maxBackoff());
    }

    private static long reconcileNanos(MirrorSource source) {
        return source.reconcileInterval().isZero() ? Long.MAX_VALUE / 4 : source.reconcileInterval().toNanos();
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
        mirror.stop(); // a sync in flight ends after its current write, not in the middle of it
        if (scheduler != null) {
            scheduler.shutdown();
            try {
                // Wait for that write before the datasource closes; interrupt only what still hangs then.
                if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
                    scheduler.shutdownNow();
                }
            } catch (InterruptedException e) {
                scheduler.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }
}
