package dev.a2atasks.mirror;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import dev.a2atasks.metrics.ServiceMetrics;

import dev.a2atasks.client.ListFilter;
import dev.a2atasks.client.RemoteTasks;
import dev.a2atasks.client.TaskListing;
import dev.a2atasks.client.TranscriptCopy;
import dev.a2atasks.client.TaskWalker;
import dev.a2atasks.client.WalkListener;
import dev.a2atasks.client.WalkStats;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.task.read.TaskReads;
import dev.a2atasks.task.store.MirrorCopies;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Keeps a local copy of a remote agent's tasks, incrementally. Each sync lists the source from
 * its persisted high-water mark minus the skew ({@code statusTimestampAfter}), writes what differs
 * from the copy, and moves the mark to the newest status timestamp seen. Tasks that change while
 * a sync pages move ahead of its cursor, and have a status timestamp above the new mark minus the
 * skew: the next sync is their catch-up pass. Without a mark (first sync) the whole source is
 * listed. An idle sync reads the skew window and writes nothing.
 *
 * <p>With full histories ({@code history=full}) the walk carries no history; each task it reads
 * has its transcript brought up to date with the source's history-paging extension through a
 * {@link TranscriptCopy} over the local tables: the whole transcript on the first sync, then
 * whatever followed the newest message the copy holds, however many syncs were missed.
 *
 * <p>A reconciliation walks the whole source (plus a catch-up pass for tasks that moved while it
 * walked) and then retires local copies of tasks the source no longer has: deleted, or marked.
 *
 * <p>Blocking: call it from a worker thread, never from an event loop.
 */
@ApplicationScoped
public class Mirror {

    private static final Logger LOG = Logger.getLogger(Mirror.class);
    private static final int RETIRE_BATCH = 500;
    /** How long a source's published skew is reused before its card is read again (the card's own max-age is 5 min). */
    private static final Duration PUBLISHED_SKEW_TTL = Duration.ofMinutes(5);

    private record Published(Duration skew, long readAtNanos) {
    }

    private final Map<String, Published> publishedSkews = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    /** A sync ended early because the service is stopping; it resumes from the persisted mark. */
    public static final class Stopped extends RuntimeException {
        Stopped() {
            super("the service is stopping", null, false, false);
        }
    }

    /**
     * Ends syncs in flight after the task they are copying: never in the middle of a write, whose
     * transaction would otherwise be cut off by the closing connection pool.
     */
    void stop() {
        stopping = true;
    }

    private final MirrorMarks marks;
    private final MirrorCopies copies;
    private final TaskReads reads;
    private final ServiceMetrics metrics;

    Mirror(MirrorMarks marks, MirrorCopies copies, TaskReads reads, ServiceMetrics metrics) {
        this.marks = marks;
        this.copies = copies;
        this.reads = reads;
        this.metrics = metrics;
    }

    /**
     * What one sync did. {@code read} tasks came from the source; of those {@code created} were new
     * here, {@code updated} differed (status, metadata, messages or artifacts) and the rest were
     * unchanged and not written. {@code gaps}: copies whose history may miss messages (marked in
     * the first message after the gap). {@code retired}: copies of deleted tasks (reconciliation only).
     */
    public record SyncResult(boolean reconciliation, WalkStats stats, int read, int created, int updated, int unchanged,
            int messagesAdded, int gaps, int retired, int pages, Instant fromMark, Instant toMark, Duration skew) {

        /** How long the sync's walk took. */
        public Duration duration() {
            return stats.duration();
        }

        /** One log line; every field is what this sync really did. */
        String summary() {
            return (reconciliation ? "reconciled" : "synced") + ": read=" + read + " pages=" + pages + " created="
                    + created + " updated=" + updated + " unchanged=" + unchanged + " messagesAdded=" + messagesAdded
                    + " gaps=" + gaps + (reconciliation ? " retired=" + retired : "") + " mark " + fromMark + " -> "
                    + toMark + " (skew " + skew.toMillis() + " ms) in " + stats.duration().toMillis() + " ms";
        }
    }

    public SyncResult sync(MirrorSource source) {
        return run(source, false);
    }

    /** A full walk of the source that also retires copies of tasks deleted there. */
    public SyncResult reconcile(MirrorSource source) {
        return run(source, true);
    }

    private SyncResult run(MirrorSource source, boolean reconcile) {
        Instant mark = await(() -> marks.get(source.name()));
        ListFilter filter = ListFilter.all()
                .withPageSize(source.pageSize())
                .withHistoryLength(source.historyLength())
                .withIncludeArtifacts(source.includeArtifacts());
        Counts counts = new Counts();
        Set<String> seen = reconcile ? new HashSet<>() : null;
        TaskWalker.PassResult result;
        Duration skew;
        try (RemoteTasks listing = source.open()) {
            skew = source.skew().orElseGet(() -> publishedSkew(source, listing));
            TaskWalker walker = new TaskWalker(listing, skew, 0, WalkListener.NONE);
            if (mark != null && !reconcile) {
                filter = filter.withStatusTimestampAfter(mark.minus(skew));
            }
            MirroredTranscripts transcripts = source.fullHistory() ? new MirroredTranscripts(source.localOwner(), source.name(), copies, reads, () -> stopping) : null;
            TranscriptCopy copies = transcripts == null ? null : new TranscriptCopy(listing, transcripts, source.historyPageSize());
            result = walker.walk(filter, page -> copy(source, page, counts, seen, copies));
            if (reconcile && result.newest() != null) {
                // Tasks that moved (or were created) while the walk paged went ahead of its cursor.
                TaskWalker.PassResult catchUp = walker.walk(filter.withStatusTimestampAfter(result.newest().minus(skew)),
                        page -> copy(source, page, counts, seen, copies));
                if (catchUp.newest() != null && catchUp.newest().isAfter(result.newest())) {
                    result = new TaskWalker.PassResult(result.stats(), catchUp.newest());
                }
            }
        }
        if (reconcile) {
            counts.retired = retireGone(source, seen);
        }
        Instant newMark = result.newest() == null ? mark : mark == null || result.newest().isAfter(mark) ? result.newest() : mark;
        if (newMark != null && !newMark.equals(mark)) {
            await(() -> marks.advance(source.name(), newMark));
        }
        SyncResult sync = new SyncResult(reconcile, result.stats(), counts.read, counts.created, counts.updated,
                counts.read - counts.created - counts.updated, counts.messages, counts.gaps, counts.retired, counts.pages, mark,
                newMark, skew);
        LOG.infof("Mirror %s %s", source.name(), sync.summary());
        metrics.mirrorSynced(source.name(), newMark, result.stats().catchUpRows(), counts.created + counts.updated);
        return sync;
    }

    /** The source's published skew (else the default), read from its card at most every five minutes. */
    private Duration publishedSkew(MirrorSource source, TaskListing listing) {
        Published known = publishedSkews.get(source.name());
        if (known == null || System.nanoTime() - known.readAtNanos() > PUBLISHED_SKEW_TTL.toNanos()) {
            known = new Published(listing.publishedSkew().orElse(TaskWalker.DEFAULT_SKEW), System.nanoTime());
            publishedSkews.put(source.name(), known);
        }
        return known.skew();
    }

    private void copy(MirrorSource source, ListTasksResponse page, Counts counts, Set<String> seen, TranscriptCopy transcripts) {
        counts.pages++;
        page.getTasksList().forEach(task -> copy(source, task, counts, seen, transcripts));
    }

    private void copy(MirrorSource source, Task task, Counts counts, Set<String> seen, TranscriptCopy transcripts) {
        if (stopping) {
            throw new Stopped();
        }
        MirrorCopies.Upserted upserted = await(() -> copies.upsert(source.localOwner(), source.name(), task, source.historyLength()));
        counts.read++;
        if (seen != null) {
            seen.add(task.getId());
        }
        if (upserted.foreign()) {
            LOG.warnf("Mirror %s: task %s is in its scope but is not its copy (the owner's own task, or another source's);"
                    + " left alone", source.name(), task.getId());
            return;
        }
        if (upserted.created()) {
            counts.created++;
        } else if (upserted.changed()) {
            counts.updated++;
        }
        counts.messages += upserted.created() ? 0 : upserted.messagesAdded();
        if (transcripts != null) {
            TranscriptCopy.SyncResult synced = transcripts.sync(null, task.getId());
            counts.messages += synced.added();
            if (synced.added() > 0 && !upserted.created() && !upserted.changed()) {
                counts.updated++; // only its transcript moved
            }
        }
        if (upserted.historyGap()) {
            counts.gaps++;
            LOG.warnf("Mirror %s: task %s got more than %d new messages since the last sync; the copy marks the gap"
                    + " (a2aTasksMirror.historyGapBefore) before the first one it has", source.name(), task.getId(),
                    source.historyLength());
        }
    }

    /**
     * Retires, in batches, the local copies the reconciliation walk did not see. A source that lists
     * nothing at all retires nothing: far likelier a token now scoped to someone else than a source
     * whose every task was deleted, and a mirror must not empty itself on a configuration slip.
     */
    private int retireGone(MirrorSource source, Set<String> seen) {
        if (seen.isEmpty()) {
            List<String> copies = await(() -> reads.copiesAfter(source.localOwner(), source.name(), "", 1));
            if (!copies.isEmpty()) {
                LOG.warnf("Mirror %s: the source listed no task at all; its copies are kept (a token for another"
                        + " caller?). Delete them by hand if the source really is empty.", source.name());
            }
            return 0;
        }
        int retired = 0;
        String after = "";
        List<String> page;
        do {
            String from = after;
            page = await(() -> reads.copiesAfter(source.localOwner(), source.name(), from, RETIRE_BATCH));
            List<String> gone = new ArrayList<>();
            for (String id : page) {
                if (!seen.contains(id)) {
                    gone.add(id);
                }
            }
            if (!gone.isEmpty()) {
                retired += await(() -> copies.retireCopies(source.localOwner(), source.name(), gone, source.deleteGone()));
            }
            if (!page.isEmpty()) {
                after = page.get(page.size() - 1);
            }
        } while (page.size() == RETIRE_BATCH);
        return retired;
    }

    private static final class Counts {
        int pages;
        int read;
        int created;
        int updated;
        int messages;
        int gaps;
        int retired;
    }

    static <T> T await(Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
