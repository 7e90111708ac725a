package dev.a2atasks.execution;

import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.a2atasks.push.PushStore;
import dev.a2atasks.task.store.TaskEventLog;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.pubsub.PgSubscriber;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;

/**
 * Wake-ups from the other replicas: every committed batch of task events sends a PostgreSQL
 * {@code NOTIFY} on {@value TaskEventLog#EVENTS_CHANNEL} whose payload is only the task's row key
 * (the events themselves stay in the table); this process LISTENs on one dedicated connection,
 * reconnected every second while the database is away, and wakes the streams and blocking sends
 * waiting on that task. While it is connected, waiters rely on it ({@link TaskSignals#reReadAfter});
 * it is checked every second, and pinged every {@value #PING_EVERY_TICKS} s (a connection that
 * died without closing is closed, and so reconnected); while it is down, waiters re-read on
 * {@code a2a.stream.poll-interval}. The same connection LISTENs on
 * {@value PushStore#OUTBOX_CHANNEL} and passes it on as a CDI event: a commit owes webhook
 * deliveries, so the push worker looks now.
 */
@ApplicationScoped
public class EventNotifications {

    private static final Logger LOG = Logger.getLogger(EventNotifications.class);

    private final Vertx vertx;
    private final TaskSignals signals;
    private final Event<PushStore.OutboxNotice> outboxNotices;
    private final Optional<String> url;
    private final Optional<String> user;
    private final Optional<String> password;
    private PgSubscriber subscriber;
    private volatile boolean stopped;
    private long checks = -1;
    private long ticks;
    private boolean pinging;
    static final int PING_EVERY_TICKS = 10;

    EventNotifications(Vertx vertx, TaskSignals signals, Event<PushStore.OutboxNotice> outboxNotices,
            @ConfigProperty(name = "quarkus.datasource.reactive.url") Optional<String> url,
            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.vertx = vertx;
        this.signals = signals;
        this.outboxNotices = outboxNotices;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    void start(@Observes StartupEvent ignored) {
        if (url.isEmpty()) {
            LOG.warn("No quarkus.datasource.reactive.url: task events of other replicas are seen on the poll interval only");
            return;
        }
        PgConnectOptions options = PgConnectOptions.fromUri(url.get().replaceFirst("^vertx-reactive:", ""));
        user.ifPresent(options::setUser);
        password.ifPresent(options::setPassword);
        subscriber = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> 1_000L);
        subscriber.channel(TaskEventLog.EVENTS_CHANNEL).handler(payload -> {
            try {
                signals.fire(Long.parseLong(payload));
            } catch (NumberFormatException e) {
                LOG.debugf("Ignored a notification that is not a task key: %s", payload.length() > 40 ? payload.substring(0, 40) : payload);
            }
        });
        subscriber.channel(PushStore.OUTBOX_CHANNEL).handler(payload -> outboxNotices.fire(new PushStore.OutboxNotice()));
        connect(1);
        checks = vertx.setPeriodic(1_000, id -> check());
    }

    /** Tells the waiters whether every commit reaches them; pings the connection now and then. */
    private void check() {
        PgConnection connection = subscriber.actualConnection();
        signals.everyCommitSignalled(connection != null);
        if (connection == null || pinging || ++ticks % PING_EVERY_TICKS != 0) {
            return;
        }
        pinging = true;
        connection.query("SELECT 1").execute().timeout(5, java.util.concurrent.TimeUnit.SECONDS).onComplete(result -> {
            pinging = false;
            if (result.failed() && !stopped) {
                LOG.warnf("The LISTEN connection did not answer a ping (%s); reconnecting", result.cause().toString());
                signals.everyCommitSignalled(false);
                connection.close(); // the subscriber reconnects
            }
        });
    }

    /**
     * The first connection: the subscriber's reconnect policy covers a connection that closes
     * later, not one that never opened, so that retry is this loop's, every second until it holds.
     */
    private void connect(int attempt) {
        subscriber.connect().onSuccess(ignored -> {
            if (attempt > 1) {
                LOG.infof("LISTEN %s connected after %d attempts", TaskEventLog.EVENTS_CHANNEL, attempt);
            }
        }).onFailure(e -> {
            if (stopped) {
                return;
            }
            if (attempt == 1) {
                LOG.warnf("LISTEN %s not connected yet (retrying every second): %s", TaskEventLog.EVENTS_CHANNEL, e.toString());
            }
            vertx.setTimer(1_000, id -> {
                if (!stopped) {
                    connect(attempt + 1);
                }
            });
        });
    }

    void stop(@Observes ShutdownEvent ignored) {
        stopped = true;
        if (checks >= 0) {
            vertx.cancelTimer(checks);
        }
        if (subscriber != null) {
            subscriber.close();
        }
    }
}
