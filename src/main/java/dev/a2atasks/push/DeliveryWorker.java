package dev.a2atasks.push;

import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.a2atasks.db.DatabaseAvailability;
import dev.a2atasks.metrics.ServiceMetrics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

/**
 * Every replica runs one: it claims due outbox rows (leased, {@code FOR UPDATE SKIP LOCKED}),
 * POSTs each event to its webhook (spec §4.3.3: the StreamResponse as {@code application/a2a+json},
 * {@code Authorization: <scheme> <credentials>}, the token as {@code X-A2A-Notification-Token}),
 * and records the outcome: delivered rows are deleted, failed ones retried with exponential
 * backoff and jitter, then marked DEAD (logged and counted) after
 * {@code a2a.push.retry.max-attempts} or {@code max-age}.
 *
 * <p>At least once: a delivery whose answer was lost, or whose worker died mid-POST, is made again
 * (receivers dedupe on {@code X-A2A-Delivery-Id}). Nothing is lost to a restart: rows wait in the
 * table. Woken by the outbox's NOTIFY on commit; polls every {@code a2a.push.poll-interval} for
 * rows other replicas scheduled; wakes itself when one of its own retries is due. Its claims,
 * deletes and deliveries run on an event loop of their own ({@link DeliveryLoop}). (Stored secrets
 * are re-sealed after a key rotation by {@link SecretRotation}, on a thread of its own.)
 */
@ApplicationScoped
public class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger(DeliveryWorker.class);
    static final String TOKEN_HEADER = "X-A2A-Notification-Token";
    static final String DELIVERY_ID_HEADER = "X-A2A-Delivery-Id";
    /** The longest wait for a claim or delete (their statements end after 5 s); rows a late claim leased wait for their lease to end. */
    private static final Duration OUTBOX_WAIT = Duration.ofSeconds(30);

    private final Outbox outbox;
    private final DatabaseAvailability database;
    private final WebhookGuard guard;
    private final SecretBox secrets;
    private final ServiceMetrics metrics;
    private final PushSettings settings;
    private final DeliveryLoop loop;
    private final Backoff backoff;
    /** The lease owner of this process run: a restarted process never takes an old lease for its own. */
    private final String leaseOwner;
    private final ConcurrentLinkedQueue<Outbox.Attempt> finished = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final DeliveryShares shares;
    private final Object wakeup = new Object();
    private boolean woken;
    private volatile boolean stopping;
    private WebhookClient client;
    private Thread thread;
    private OffsetDateTime ownRetryDue;
    /** Whether the next claim first asks if anything is due: after a quiet poll, not after a wake-up. */
    private boolean lookFirst = true;
    /** Rows delivered, not yet deleted (this thread's own): the next claim deletes them and claims what they held back, else {@link #deleteDelivered}. */
    private final List<PushDeliveryEntity.Key> delivered = new ArrayList<>();

    DeliveryWorker(Outbox outbox, DatabaseAvailability database, WebhookGuard guard, SecretBox secrets, ServiceMetrics metrics, PushSettings settings, DeliveryLoop loop,
            @ConfigProperty(name = "a2a.instance-id") Optional<String> instance) {
        this.outbox = outbox;
        this.database = database;
        this.guard = guard;
        this.secrets = secrets;
        this.metrics = metrics;
        this.settings = settings;
        this.loop = loop;
        this.backoff = new Backoff(settings.retry().initialDelay(), settings.retry().maxDelay(), () -> ThreadLocalRandom.current().nextDouble());
        this.shares = new DeliveryShares(settings.maxInFlightPerTenant(), settings.maxInFlightPerUrl());
        this.leaseOwner = instance.filter(s -> !s.isBlank()).orElse("a2a") + "/push-" + UUID.randomUUID().toString().substring(0, 8);
    }

    void start(@Observes StartupEvent ignored) {
        if (!settings.enabled()) {
            return;
        }
        client = new WebhookClient(loop.vertx(), settings.timeout(), settings.maxResponseBytes(), settings.maxInFlight());
        thread = new Thread(this::run, "a2a-push-worker");
        thread.setDaemon(true);
        thread.start();
    }

    /** A commit owed deliveries (this replica's or another's): look now rather than at the next poll. */
    void owed(@Observes PushStore.OutboxNotice notice) {
        wake();
    }

    /**
     * Lets deliveries in flight end (up to the timeout) and records them, then gives back
     * unattempted leases. Runs after the default-priority shutdown observers (the mirror's, the
     * lease sweeper's), so its wait never delays them telling their own work to stop.
     */
    void stop(@Observes @Priority(Interceptor.Priority.APPLICATION + 1000) ShutdownEvent ignored) {
        if (thread == null) {
            return;
        }
        stopping = true;
        wake();
        try {
            thread.join(settings.timeout().toMillis() + 5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }

    private void wake() {
        synchronized (wakeup) {
            woken = true;
            wakeup.notifyAll();
        }
    }

    private void run() {
        // The first look waits one poll interval (or the first notice): made at once, its queries
        // (and Hibernate's first parse of them) would take a core from the replica's start-up.
        sleep();
        while (!stopping || inFlight.get() > 0) {
            try {
                boolean busy = recordFinished();
                if (!stopping) {
                    busy |= claimAndSend();
                } else {
                    deleteDelivered();
                }
                if (!busy) {
                    sleep();
                }
            } catch (Throwable e) {
                if (stopping) {
                    LOG.debugf("Push worker stopping: %s", e);
                } else if (DatabaseAvailability.isOutage(e)) {
                    LOG.debugf("Push worker paused: database unreachable");
                } else {
                    LOG.errorf(e, "Push worker round failed; it goes on at the next round");
                }
                sleep();
            }
        }
        try {
            recordFinished();
            deleteDelivered();
            VertxContextSupport.subscribeAndAwait(() -> outbox.release(leaseOwner));
        } catch (Throwable e) {
            LOG.debugf("Push worker could not give back its leases at shutdown (they expire): %s", e);
        }
    }

    /**
     * Records the attempts that ended since the last round, but for the delivered ones, which join
     * {@link #delivered}; true when there were any.
     */
    private boolean recordFinished() throws Throwable {
        boolean any = false;
        List<Outbox.Attempt> undelivered = new ArrayList<>();
        for (Outbox.Attempt attempt; (attempt = finished.poll()) != null;) {
            any = true;
            if (attempt.outcome() == Outbox.Outcome.DELIVERED) {
                delivered.add(attempt.key());
            } else {
                undelivered.add(attempt);
            }
        }
        if (undelivered.isEmpty()) {
            return any;
        }
        Outbox.Recorded recorded;
        try {
            recorded = VertxContextSupport.subscribeAndAwait(() -> outbox.recordUndelivered(leaseOwner, undelivered, backoff,
                    settings.retry().maxAttempts(), settings.retry().maxAge()));
        } catch (Throwable e) {
            finished.addAll(undelivered);
            throw e;
        }
        for (int i = 0; i < recorded.retried(); i++) {
            metrics.pushFailed(false);
        }
        for (PushDeliveryEntity dead : recorded.dead()) {
            metrics.pushFailed(true);
            LOG.warnf("Push delivery given up after %d attempt(s): task %s, config %s, event %d; last error: %s",
                    dead.attempts, dead.taskId, dead.configId, dead.eventSeq, dead.lastError);
        }
        OffsetDateTime soonest = recorded.soonestRetry();
        if (soonest != null) {
            // One of ours is due again: wake for it rather than waiting for a poll.
            ownRetryDue = ownRetryDue == null || soonest.isBefore(ownRetryDue) ? soonest : ownRetryDue;
        }
        return true;
    }

    /**
     * Claims what is due, up to the free capacity, and starts each batch; true when it claimed any.
     * Asks first whether anything is due only after a quiet poll: woken by a notice or by finished
     * deliveries, it claims at once (an empty claim costs a transaction, a look a statement more).
     */
    private boolean claimAndSend() throws Throwable {
        int free = settings.maxInFlight() - inFlight.get();
        if (free <= 0 || database.isDown() || (lookFirst && !VertxContextSupport.subscribeAndAwait(outbox::anyDue))) {
            deleteDelivered();
            return false; // no room, nothing to claim, or no database to claim it from: no claim made
        }
        lookFirst = false;
        Duration lease = settings.timeout().multipliedBy(2).plusSeconds(10);
        DeliveryShares.Tentative taking = shares.tentatively();
        List<PushDeliveryEntity.Key> deleting = List.copyOf(delivered);
        List<Outbox.Batch> claimed;
        try {
            // Not subscribeAndAwait, which would queue it behind requests on a service loop: the pool answers on the delivery loop.
            claimed = outbox.claim(leaseOwner, free, settings.maxBatch(), lease, taking, deleting).await().atMost(OUTBOX_WAIT);
        } catch (Throwable e) {
            taking.giveBack(); // not committed: none of its rows will be sent, and the delivered ones are still there
            deleteDelivered(); // on their own: were claims to keep failing, their leases would end and they would be sent again
            throw e;
        }
        delivered.clear();
        // A batch's later events are sent only while half the lease is left: the rest go back
        // unattempted rather than risk another worker taking them while this one still sends.
        long sendUntil = System.nanoTime() + lease.toNanos() / 2;
        io.vertx.core.Context onLoop = loop.context(); // every step of a delivery runs there, from the first
        for (Outbox.Batch batch : claimed) {
            inFlight.incrementAndGet();
            onLoop.runOnContext(ignored -> new Slot(batch, sendUntil).next());
        }
        return !claimed.isEmpty();
    }

    /** Deletes {@link #delivered} on its own (a round that claims nothing, a failed claim, the worker stopping); they wait for a later round if it fails. */
    private void deleteDelivered() {
        if (delivered.isEmpty() || database.isDown()) {
            return;
        }
        List<PushDeliveryEntity.Key> deleting = List.copyOf(delivered);
        try {
            outbox.delivered(leaseOwner, deleting).await().atMost(OUTBOX_WAIT);
            delivered.clear();
        } catch (Throwable e) {
            LOG.debugf("Push worker could not delete %d delivered row(s) yet; a later round does: %s", deleting.size(), e);
        }
    }

    /**
     * One share of the worker: a registration's claimed events, sent one after the other. An
     * event that fails ends the slot, and the events after it are given back unattempted; so is
     * what is left when the worker stops or half the lease has passed.
     */
    private final class Slot {
        private final Outbox.Batch batch;
        private final long sendUntil;
        private int next;

        Slot(Outbox.Batch batch, long sendUntil) {
            this.batch = batch;
            this.sendUntil = sendUntil;
        }

        void next() {
            List<Outbox.Claimed> events = batch.events();
            if (next < events.size() && (stopping || System.nanoTime() > sendUntil)) {
                end(next);
                return;
            }
            if (next == events.size()) {
                end(next);
                return;
            }
            Outbox.Claimed event = events.get(next++);
            try {
                send(batch.config(), event, this::ended);
            } catch (RuntimeException e) {
                ended(unsendable(event, e));
            }
        }

        private void ended(Outbox.Attempt attempt) {
            finished.add(attempt);
            if (attempt.outcome() == Outbox.Outcome.DELIVERED) {
                wake(); // its row deleted at the worker's next round
                next();
            } else {
                end(next);
            }
        }

        /** Gives back the events from {@code from} on unattempted, and the slot's share. */
        private void end(int from) {
            List<Outbox.Claimed> events = batch.events();
            for (int i = from; i < events.size(); i++) {
                finished.add(Outbox.Attempt.released(events.get(i).key()));
            }
            shares.release(batch.config().tenant, batch.config().url);
            inFlight.decrementAndGet();
            wake();
        }
    }

    private static Outbox.Attempt unsendable(Outbox.Claimed event, RuntimeException e) {
        LOG.debugf(e, "Push delivery %s could not be made", event.key());
        return Outbox.Attempt.failed(event.key(), "could not be sent: " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }

    /**
     * Starts one delivery; {@code ended} hears how it ended, once. Whatever goes wrong in it,
     * thrown here or later in a callback, ends as a failed attempt: a row no delivery can be made
     * of (a URL stored before the grammar refused it, say) must cost its own retries and nothing
     * of anyone else's.
     */
    private void send(PushConfigEntity config, Outbox.Claimed event, java.util.function.Consumer<Outbox.Attempt> ended) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/a2a+json");
        headers.put("User-Agent", "a2a-tasks");
        headers.put(DELIVERY_ID_HEADER, config.taskId + "/" + config.id + "/" + event.key().eventSeq);
        try {
            if (config.authScheme != null) {
                headers.put("Authorization", config.credentialsSealed == null ? config.authScheme
                        : config.authScheme + " " + secrets.open(config.credentialsSealed, PushConfigs.place(config, "credentials")));
            }
            if (config.tokenSealed != null) {
                headers.put(TOKEN_HEADER, secrets.open(config.tokenSealed, PushConfigs.place(config, "token")));
            }
        } catch (SecretBox.Unreadable e) {
            ended.accept(Outbox.Attempt.failed(event.key(), "credentials unavailable: " + e.getMessage()));
            return;
        }
        URI url = URI.create(config.url);
        byte[] body = event.payloadJson().getBytes(StandardCharsets.UTF_8);
        guard.check(url).subscribe().with(
                addresses -> {
                    try {
                        post(event, url, addresses.get(0), body, headers, ended);
                    } catch (RuntimeException e) {
                        ended.accept(unsendable(event, e));
                    }
                },
                refused -> ended.accept(Outbox.Attempt.failed(event.key(), refused instanceof WebhookGuard.Refused
                        ? "refused: " + refused.getMessage() : "address check failed: " + refused.getClass().getSimpleName())));
    }

    private void post(Outbox.Claimed event, URI url, InetAddress address, byte[] body, Map<String, String> headers,
            java.util.function.Consumer<Outbox.Attempt> ended) {
        client.post(url, address, body, headers).whenComplete((answer, failure) -> {
            if (failure != null) {
                ended.accept(Outbox.Attempt.failed(event.key(), "request failed: " + failure.getClass().getSimpleName()));
            } else if (answer.delivered()) {
                metrics.pushDelivered(Duration.between(event.eventCreatedAt(), OffsetDateTime.now(ZoneOffset.UTC)));
                ended.accept(Outbox.Attempt.delivered(event.key()));
            } else {
                ended.accept(Outbox.Attempt.failed(event.key(), answer.describe()));
            }
        });
    }

    private void sleep() {
        long waitMillis = settings.pollInterval().toMillis();
        if (ownRetryDue != null) {
            long untilRetry = Duration.between(OffsetDateTime.now(ZoneOffset.UTC), ownRetryDue).toMillis();
            if (untilRetry <= 0) {
                ownRetryDue = null;
                return;
            }
            waitMillis = Math.min(waitMillis, untilRetry);
        }
        synchronized (wakeup) {
            if (!woken) {
                try {
                    wakeup.wait(Math.max(1, waitMillis));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopping = true;
                }
            }
            lookFirst = !woken; // the wait ran out: a poll, which looks before it claims
            woken = false;
        }
    }
}
