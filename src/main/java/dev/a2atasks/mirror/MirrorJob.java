package dev.a2atasks.mirror;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Runs each configured, enabled mirror on its interval, one sync at a time per source, on its own
 * worker thread. Nothing runs when no mirror is configured (the default).
 */
@ApplicationScoped
class MirrorJob {

    private static final Logger LOG = Logger.getLogger(MirrorJob.class);

    private final MirrorConfig config;
    private final Mirror mirror;
    private ScheduledExecutorService scheduler;

    MirrorJob(MirrorConfig config, Mirror mirror) {
        this.config = config;
        this.mirror = mirror;
    }

    void start(@Observes StartupEvent event) {
        var enabled = config.sources().entrySet().stream().filter(e -> e.getValue().enabled()).toList();
        if (enabled.isEmpty()) {
            return;
        }
        scheduler = Executors.newScheduledThreadPool(Math.min(enabled.size(), 4), runnable -> {
            Thread thread = new Thread(runnable, "a2a-mirror");
            thread.setDaemon(true);
            return thread;
        });
        for (var entry : enabled) {
            MirrorSource source = MirrorSource.of(entry.getKey(), entry.getValue());
            source.open().close(); // a bad binding name fails here, at start-up
            scheduler.scheduleWithFixedDelay(() -> syncQuietly(source), 0, entry.getValue().interval().toMillis(),
                    TimeUnit.MILLISECONDS);
            LOG.infof("Mirror %s: every %s from %s (%s), stored as %s", source.name(), entry.getValue().interval(),
                    source.endpoint(), source.binding(), source.localOwner());
        }
    }

    private void syncQuietly(MirrorSource source) {
        try {
            mirror.sync(source);
        } catch (RuntimeException e) {
            // The next run retries from the same mark; nothing was lost.
            LOG.warnf(e, "Mirror %s: sync failed, retrying at the next interval", source.name());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
