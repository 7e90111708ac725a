package dev.a2atasks.mirror;

import java.time.Instant;

import org.jboss.logging.Logger;

import dev.a2atasks.client.ListFilter;
import dev.a2atasks.client.TaskListing;
import dev.a2atasks.client.TaskWalker;
import dev.a2atasks.client.WalkListener;
import dev.a2atasks.client.WalkStats;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Keeps a local copy of a remote agent's tasks, incrementally. Each sync lists the source from
 * its persisted high-water mark minus the skew ({@code statusTimestampAfter}), upserts what comes
 * back, and moves the mark to the newest status timestamp seen. Tasks that change while a sync
 * pages move ahead of its cursor, and have a status timestamp above the new mark minus the skew:
 * the next sync is their catch-up pass. Without a mark (first sync) the whole source is listed.
 *
 * <p>Blocking: call it from a worker thread, never from an event loop.
 */
@ApplicationScoped
public class Mirror {

    private static final Logger LOG = Logger.getLogger(Mirror.class);

    private final MirrorMarks marks;
    private final TaskStore store;

    Mirror(MirrorMarks marks, TaskStore store) {
        this.marks = marks;
        this.store = store;
    }

    /** What one sync did: rows read from the source, the mark it started from and the one it left. */
    public record SyncResult(WalkStats stats, Instant fromMark, Instant toMark) {
    }

    public SyncResult sync(MirrorSource source) {
        Instant mark = await(() -> marks.get(source.name()));
        ListFilter filter = ListFilter.all()
                .withPageSize(source.pageSize())
                .withHistoryLength(source.historyLength())
                .withIncludeArtifacts(source.includeArtifacts());
        if (mark != null) {
            filter = filter.withStatusTimestampAfter(mark.minus(source.skew()));
        }
        TaskWalker.PassResult result;
        try (TaskListing listing = source.open()) {
            TaskWalker walker = new TaskWalker(listing, source.skew(), 0, WalkListener.NONE);
            result = walker.walk(filter, page -> {
                for (Task task : page.getTasksList()) {
                    await(() -> store.upsert(source.localOwner(), task));
                }
            });
        }
        Instant newMark = result.newest() == null ? mark : result.newest();
        if (newMark != null && !newMark.equals(mark)) {
            await(() -> marks.advance(source.name(), newMark));
        }
        LOG.infof("Mirror %s synced: %s from mark %s to %s", source.name(), result.stats(), mark, newMark);
        return new SyncResult(result.stats(), mark, newMark);
    }

    private static <T> T await(java.util.function.Supplier<io.smallrye.mutiny.Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
