package dev.a2atasks.jobs;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * A pass run on a daemon thread of its own, first after {@code first}, then {@code every} after
 * the end of the previous pass (passes never overlap, and a slow one delays the next rather than
 * piling up). A pass that throws is logged and the schedule goes on: with a bare
 * {@code ScheduledExecutorService}, one uncaught exception silently ends every later run.
 * {@link #stop} lets a pass in flight end within a bound, then interrupts it.
 */
public final class PeriodicJob {

    private static final Logger LOG = Logger.getLogger(PeriodicJob.class);

    private final String name;
    private final ScheduledExecutorService thread;

    private PeriodicJob(String name, Duration first, Duration every, Runnable pass) {
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException(name + ": the interval must be positive, got " + every);
        }
        this.name = name;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, name);
            t.setDaemon(true); // never what keeps the process alive
            return t;
        });
        thread.scheduleWithFixedDelay(() -> {
            try {
                pass.run();
            } catch (Throwable e) {
                LOG.warnf("%s: a pass failed (the next one runs as scheduled): %s", name, e.toString());
            }
        }, Math.max(0, first.toMillis()), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts {@code pass} on a thread named {@code name}: after {@code first}, then every {@code every}. */
    public static PeriodicJob start(String name, Duration first, Duration every, Runnable pass) {
        return new PeriodicJob(name, first, every, pass);
    }

    /** Starts {@code pass} every {@code every}, the first time one interval from now. */
    public static PeriodicJob every(String name, Duration every, Runnable pass) {
        return start(name, every, every, pass);
    }

    /**
     * No more passes; one in flight may finish within {@code grace} (a pass is short statements:
     * cutting one mid-commit gains nothing), then it is interrupted. Zero interrupts at once.
     */
    public void stop(Duration grace) {
        thread.shutdown();
        try {
            if (grace.isZero() || !thread.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "PeriodicJob[" + name + "]";
    }
}
