package dev.a2atasks.client;

import java.util.concurrent.TimeUnit;

/**
 * Reports every walk's {@link WalkStats} to Micrometer's global registry when Micrometer is on
 * the class path (in a Quarkus service it is, and the global registry feeds its Prometheus
 * endpoint); without Micrometer it does nothing, so the client jar needs no metrics library.
 * Meter names start with {@code a2a.client.walk}; no labels, so nothing of the caller leaks into them.
 */
final class WalkMetrics {

    private static final boolean PRESENT = present();

    private WalkMetrics() {
    }

    static void record(WalkStats stats) {
        if (PRESENT) {
            Meters.record(stats);
        }
    }

    private static boolean present() {
        try {
            Class.forName("io.micrometer.core.instrument.Metrics", false, WalkMetrics.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Loaded only when Micrometer is there: the only class of the client that names it. */
    private static final class Meters {
        static void record(WalkStats stats) {
            io.micrometer.core.instrument.MeterRegistry registry = io.micrometer.core.instrument.Metrics.globalRegistry;
            registry.counter("a2a.client.walks").increment();
            registry.counter("a2a.client.walk.pages").increment(stats.pages());
            registry.counter("a2a.client.walk.rows").increment(stats.rows());
            registry.counter("a2a.client.walk.catch.up.rows").increment(stats.catchUpRows());
            registry.counter("a2a.client.walk.catch.up.rounds").increment(stats.catchUpRounds());
            registry.counter("a2a.client.walk.token.errors").increment(stats.tokenErrors());
            registry.timer("a2a.client.walk.duration").record(stats.duration().toNanos(), TimeUnit.NANOSECONDS);
        }
    }
}
