package dev.a2atasks.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.a2atasks.error.ErrorKind;
import dev.a2atasks.paging.PageTokenCodec;
import dev.a2atasks.ratelimit.RequestClass;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Every meter of the service. Counters a test or a dashboard compares are registered up front,
 * so they read 0 before their first event instead of being absent.
 */
@ApplicationScoped
public class ServiceMetrics {

    /** Request latency buckets: from a cached page to a slow stream's first answer. */
    private static final Duration[] LATENCY_BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30) };

    private final MeterRegistry registry;
    private final Counter walksStarted;
    private final Counter pages;
    private final Counter rows;
    private final Counter catchUpRequests;
    private final Timer totalSize;
    private final Counter historyRows;
    private final Counter tasksCreated;
    private final Map<PageTokenCodec.Refusal, Counter> tokenRefusals = new EnumMap<>(PageTokenCodec.Refusal.class);
    private final Map<RequestClass, Counter> rateLimited = new EnumMap<>(RequestClass.class);
    private final Map<String, Timer> requests = new ConcurrentHashMap<>();
    private final Map<String, Counter> transitions = new ConcurrentHashMap<>();
    private final Map<String, Counter> admissionRefusals = new ConcurrentHashMap<>();
    private final AtomicInteger subscribers;
    private final Map<String, Counter> pushDeliveries = new ConcurrentHashMap<>();
    private final Timer pushLag;

    /**
     * @param enabled {@code a2a.metrics.enabled}: false records nothing (every meter is a no-op of
     *                an empty composite registry); the framework's JVM and pool meters stay
     */
    ServiceMetrics(MeterRegistry registry,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "a2a.metrics.enabled", defaultValue = "true") boolean enabled) {
        this.registry = enabled ? registry : new io.micrometer.core.instrument.composite.CompositeMeterRegistry();
        walksStarted = Counter.builder("a2a.list.walks.started")
                .description("ListTasks requests without pageToken that were answered: walks begun, dashboard polls").register(this.registry);
        pages = Counter.builder("a2a.list.pages").description("ListTasks pages answered, first pages included").register(this.registry);
        rows = Counter.builder("a2a.list.rows").description("Tasks returned by ListTasks").register(this.registry);
        catchUpRequests = Counter.builder("a2a.list.catch.up.requests")
                .description("ListTasks pages answered for a request with statusTimestampAfter (catch-up passes, mirrors)")
                .register(this.registry);
        totalSize = Timer.builder("a2a.list.total.size")
                .description("Catch-up counts: totalSize of first pages with statusTimestampAfter (longer than one page), and their duration;"
                        + " other first pages read it from the counters in the page's own statement")
                .serviceLevelObjectives(LATENCY_BUCKETS).register(this.registry);
        historyRows = Counter.builder("a2a.get.task.history.rows").description("History messages returned by GetTask").register(this.registry);
        tasksCreated = Counter.builder("a2a.tasks.created").description("Tasks created by SendMessage").register(this.registry);
        for (PageTokenCodec.Refusal reason : PageTokenCodec.Refusal.values()) {
            tokenRefusals.put(reason, Counter.builder("a2a.page.token.refusals").tag("reason", reason.label())
                    .description("Page tokens refused, by reason").register(this.registry));
        }
        for (RequestClass requestClass : RequestClass.values()) {
            rateLimited.put(requestClass, Counter.builder("a2a.rate.limit.refusals").tag("class", requestClass.key())
                    .description("Requests refused by a per-caller rate limit, by request class").register(this.registry));
        }
        subscribers = this.registry.gauge("a2a.stream.subscribers", new AtomicInteger());
        for (String outcome : new String[] { "delivered", "retry", "dead" }) {
            pushDeliveries.put(outcome, Counter.builder("a2a.push.deliveries").tag("outcome", outcome)
                    .description("Webhook delivery attempts by outcome: delivered (2xx), retry (failed, to be retried), dead (given up)")
                    .register(this.registry));
        }
        pushLag = Timer.builder("a2a.push.delivery.lag")
                .description("From a task event's commit to its webhook's 2xx answer, per delivered event")
                .serviceLevelObjectives(LATENCY_BUCKETS).register(this.registry);
    }

    /**
     * One A2A operation answered on a binding: its latency, labelled by binding, operation and
     * outcome ({@code ok} or the error kind, e.g. {@code task_not_found}, {@code rate_limited}).
     */
    public void request(String binding, String operation, ErrorKind failure, long nanos) {
        String outcome = failure == null ? "ok" : failure.name().toLowerCase(Locale.ROOT);
        requests.computeIfAbsent(binding + '|' + operation + '|' + outcome, k -> Timer.builder("a2a.requests")
                .description("A2A operations answered, by binding, operation and outcome")
                .tags("binding", binding, "operation", operation, "outcome", outcome)
                .serviceLevelObjectives(LATENCY_BUCKETS).register(registry))
                .record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** A request refused before any operation: missing or bad credentials, an unsupported A2A version. */
    public void refusedAtAdmission(String binding, ErrorKind kind) {
        String reason = kind.name().toLowerCase(Locale.ROOT);
        admissionRefusals.computeIfAbsent(binding + '|' + reason, k -> Counter.builder("a2a.admission.refusals")
                .description("Requests refused before any operation (credentials, A2A version), by binding and error kind")
                .tags("binding", binding, "outcome", reason).register(registry)).increment();
    }

    /** A ListTasks page answered. */
    public void page(boolean first, boolean catchUp, int rowCount) {
        if (first) {
            walksStarted.increment();
        }
        if (catchUp) {
            catchUpRequests.increment();
        }
        pages.increment();
        rows.increment(rowCount);
    }

    public Timer.Sample startTotalSize() {
        return Timer.start(registry);
    }

    public void totalSizeComputed(Timer.Sample sample) {
        sample.stop(totalSize);
    }

    public void tokenRefused(PageTokenCodec.Refusal reason) {
        tokenRefusals.get(reason).increment();
    }

    public void historyRows(int count) {
        historyRows.increment(count);
    }

    public void rateLimited(RequestClass requestClass) {
        rateLimited.get(requestClass).increment();
    }

    public void taskCreated() {
        tasksCreated.increment();
    }

    /** A task's state changed (states are the closed set of TaskState names). */
    public void transition(String from, String to) {
        transitions.computeIfAbsent(from + '|' + to, k -> Counter.builder("a2a.task.transitions")
                .description("Task state changes, by state before and after").tags("from", from, "to", to).register(registry))
                .increment();
    }

    /**
     * A mirror sync of this source (a name from configuration) ended: the high-water mark it
     * reached, the rows its catch-up pass read, the copies it created or changed.
     */
    public void mirrorSynced(String source, java.time.Instant mark, int catchUpRows, int upserted) {
        MirrorMeters meters = mirror(source);
        if (mark != null) {
            meters.markMillis.set(mark.toEpochMilli());
        }
        meters.catchUpRows.increment(catchUpRows);
        meters.upserted.increment(upserted);
    }

    public void mirrorSyncFailed(String source) {
        mirror(source).failures.increment();
    }

    private record MirrorMeters(java.util.concurrent.atomic.AtomicLong markMillis, Counter catchUpRows, Counter upserted,
            Counter failures) {
    }

    private final Map<String, MirrorMeters> mirrors = new ConcurrentHashMap<>();

    private MirrorMeters mirror(String source) {
        return mirrors.computeIfAbsent(source, name -> {
            var mark = new java.util.concurrent.atomic.AtomicLong(-1);
            // Lag is computed when scraped, so it keeps rising while a source is stuck; -1 before the first mark.
            io.micrometer.core.instrument.Gauge.builder("a2a.mirror.lag", mark,
                    m -> m.get() < 0 ? -1 : (System.currentTimeMillis() - m.get()) / 1000d)
                    .baseUnit("seconds").tag("source", name)
                    .description("Now minus the source's high-water mark (newest status timestamp copied)").register(registry);
            return new MirrorMeters(mark,
                    Counter.builder("a2a.mirror.catch.up.rows").tag("source", name)
                            .description("Tasks read by the mirror's catch-up passes").register(registry),
                    Counter.builder("a2a.mirror.tasks.upserted").tag("source", name)
                            .description("Copies created or changed by the mirror").register(registry),
                    Counter.builder("a2a.mirror.sync.failures").tag("source", name)
                            .description("Mirror syncs that failed (each is retried with backoff)").register(registry));
        });
    }

    public void subscriberJoined() {
        subscribers.incrementAndGet();
    }

    public void subscriberLeft() {
        subscribers.decrementAndGet();
    }

    /** A webhook answered 2xx: the event reached it {@code lag} after it was committed. */
    public void pushDelivered(Duration lag) {
        pushDeliveries.get("delivered").increment();
        pushLag.record(lag.isNegative() ? Duration.ZERO : lag);
    }

    /** A delivery attempt failed; {@code dead}: it was the last one. */
    public void pushFailed(boolean dead) {
        pushDeliveries.get(dead ? "dead" : "retry").increment();
    }
}
