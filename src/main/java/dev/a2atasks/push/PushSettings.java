package dev.a2atasks.push;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** Push notifications: {@code a2a.push.*}. */
@ConfigMapping(prefix = "a2a.push")
public interface PushSettings {

    /**
     * Push notifications on (the Agent Card says {@code pushNotifications: true}). Off: the four
     * config operations answer PushNotificationNotSupported and no delivery worker runs.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * Exceptions to the address policy: CIDR ranges, addresses or host names that webhooks may
     * use although they are loopback, private, link-local... Empty (no exceptions) by default.
     */
    @WithName("allow-list")
    Optional<List<String>> allowList();

    /** Per delivery: connect, send and answer within this. */
    @WithDefault("10s")
    Duration timeout();

    /** A webhook's answer is read up to this many bytes, then the connection is dropped. */
    @WithDefault("65536")
    int maxResponseBytes();

    /** Registrations per task. */
    @WithDefault("10")
    int maxConfigsPerTask();

    /** How often a worker looks for due deliveries when nothing woke it. */
    @WithDefault("1s")
    Duration pollInterval();

    /** Deliveries a worker has in flight at once. */
    @WithDefault("64")
    int maxInFlight();

    /**
     * Of those, deliveries one tenant's webhooks may have in flight at once: a tenant whose
     * webhooks are slow or dead holds at most this share of the worker (half of it), never all.
     */
    @WithDefault("32")
    int maxInFlightPerTenant();

    /**
     * Of those, deliveries to one webhook URL at once: one slow receiver holds at most this many.
     * Half the tenant's share: a client often points all its tasks at one URL, and a registration's
     * events go out one after the other, so this bounds how many of its tasks are delivered to at
     * once, while a URL that never answers still leaves its tenant the other half. This share
     * times a claim's rate bounds the delivery rate to one URL: when claims answered on the
     * service's busy event loops (70-200 ms each), 100 tasks from 8 senders to one URL lagged about
     * 1.5 s at p99 with a share of 8, 1.1-1.2 s with 16 (bench/RESULTS.md, i (push, one
     * statement)); on the worker's own loop, 104-363 ms with 16 ("Deliveries on a loop of their own").
     */
    @WithDefault("16")
    int maxInFlightPerUrl();

    /**
     * Events of one registration a delivery in flight may carry: what a registration is owed and
     * is due is claimed together and POSTed one after the other, in order, so a task's later
     * events do not each wait for a claim of their own. 1 claims one event at a time.
     */
    @WithDefault("16")
    int maxBatch();

    /** How often stored secrets sealed with a no-longer-current ring key are sealed again with the current one (also at start). */
    @WithDefault("10m")
    Duration resealInterval();

    Retry retry();

    interface Retry {
        /** The first retry's delay; each next one doubles, plus up to 25% jitter. */
        @WithDefault("1s")
        Duration initialDelay();

        /** No delay grows beyond this. */
        @WithDefault("5m")
        Duration maxDelay();

        /** Attempts in all (the first included) before a delivery is given up as dead. */
        @WithDefault("12")
        int maxAttempts();

        /** A delivery not made this long after its event is given up as dead, whatever its attempts. */
        @WithDefault("24h")
        Duration maxAge();
    }
}
