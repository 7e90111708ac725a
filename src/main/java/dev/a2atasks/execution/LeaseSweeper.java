package dev.a2atasks.execution;

import java.time.Duration;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.a2atasks.jobs.PeriodicJob;
import dev.a2atasks.db.DatabaseAvailability;
import dev.a2atasks.task.store.RunWrites;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Every replica runs one: every {@code a2a.agent.lease-sweep-interval} it fails the working tasks
 * whose run's lease expired (the process running their agent died or stalled), in batches; a
 * replica that meets rows another is sweeping waits for them and passes over them. So no task
 * stays WORKING forever: it ends FAILED within the lease and one interval of its process's death,
 * visible in ListTasks and to subscribers. A task waiting for its client (INPUT_REQUIRED,
 * AUTH_REQUIRED) is never failed: a stale lease on it is only dropped.
 *
 * <p>Not during a database outage, nor for one lease after it: every replica's renewals failed
 * while the database was away, so an expired lease then says nothing about its process. Held that
 * long, the runs still going renew first, and what is failed afterwards is what no process renewed.
 */
@ApplicationScoped
public class LeaseSweeper {

    static final String REASON = "The agent was interrupted: its run's lease expired before the task finished"
            + " (the process running it stopped, stalled, or lost its database)";
    private static final Logger LOG = Logger.getLogger(LeaseSweeper.class);
    private static final int BATCH = 100;

    private final RunWrites runs;
    private final DatabaseAvailability database;
    private final Duration interval;
    private final Duration lease;
    private PeriodicJob timer;
    private volatile boolean stopping;

    LeaseSweeper(RunWrites runs, DatabaseAvailability database,
            @ConfigProperty(name = "a2a.agent.lease-sweep-interval", defaultValue = "5s") Duration interval,
            @ConfigProperty(name = "a2a.agent.lease", defaultValue = "30s") Duration lease) {
        this.runs = runs;
        this.database = database;
        this.interval = interval;
        this.lease = lease;
    }

    /** Whether a sweep now must wait: the database is away, or came back less than a lease ago. */
    static boolean held(boolean databaseDown, java.time.Instant reachableAgainAt, java.time.Instant now, Duration lease) {
        return databaseDown || (reachableAgainAt != null && now.isBefore(reachableAgainAt.plus(lease)));
    }

    void start(@Observes StartupEvent ignored) {
        timer = PeriodicJob.every("a2a-lease-sweeper", interval, this::sweep);
    }

    /** Lets a sweep in progress finish (its transactions are short) rather than interrupting it mid-commit. */
    void stop(@Observes ShutdownEvent ignored) {
        stopping = true;
        if (timer != null) {
            timer.stop(Duration.ofSeconds(5));
        }
    }

    /** Sweeps until a batch comes back short. */
    int sweep() {
        int total = 0;
        if (held(database.isDown(), database.reachableAgainAt(), java.time.Instant.now(), lease)) {
            LOG.debugf("Lease sweep held: the database is away or came back less than %s ago; live runs renew first", lease);
            return 0;
        }
        try {
            int failed;
            do {
                // Bounded like every wait: the database's own timeouts end a stuck statement; this ends the wait for it.
                failed = VertxContextSupport.subscribeAndAwait(() -> runs.failExpiredLeases(BATCH, REASON)
                        .ifNoItem().after(interval.multipliedBy(6)).fail());
                total += failed;
            } while (failed == BATCH);
            if (total > 0) {
                LOG.warnf("Handled %d expired run lease(s): working tasks marked FAILED, tasks waiting for their client left waiting", total);
            }
        } catch (Throwable e) {
            if (stopping) {
                LOG.debugf("Lease sweep stopped by shutdown: %s", e);
            } else if (DatabaseAvailability.isOutage(e)) {
                database.outage(e); // noted, so the sweeps after it are held until a lease past its end
                LOG.debugf("Lease sweep skipped: database unreachable");
            } else {
                LOG.errorf(e, "Lease sweep failed");
            }
        }
        return total;
    }
}
