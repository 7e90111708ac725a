package dev.a2atasks.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.Task;

/**
 * Walks ListTasks the way the protocol needs (the seed article's client lessons):
 * <ul>
 * <li>a walk ends only on an empty {@code nextPageToken}, never on a short page, and a server
 * that hands back the same token twice is an error, not an endless loop;</li>
 * <li>{@link #listAll} adds the catch-up pass: tasks whose status changed mid-walk moved in front
 * of the cursor, so after the walk it lists again from the newest status timestamp of the first
 * page minus a skew, merging by task id (the later copy wins). Optionally, while a pass still
 * finds tasks that changed, another follows, up to {@code maxCatchUpRounds} (default 1);</li>
 * <li>a page-token refusal (expired, key rotated) restarts that pass once, logged; a second one
 * is thrown.</li>
 * </ul>
 * Not thread-safe; one walker per walk at a time.
 */
public final class TaskWalker {

    public static final Duration DEFAULT_SKEW = Duration.ofSeconds(2);
    private static final System.Logger LOG = System.getLogger(TaskWalker.class.getName());

    private final TaskListing listing;
    private Duration skew; // null: the server's published skew, read at the first listAll
    private final int maxCatchUpRounds;
    private final WalkListener listener;

    /**
     * The seed article's walk: one catch-up pass, with the skew the server publishes in its Agent
     * Card ({@link CatchUpHint}), or 2 s when it publishes none.
     */
    public TaskWalker(TaskListing listing) {
        this.listing = listing;
        this.skew = null;
        this.maxCatchUpRounds = 1;
        this.listener = WalkListener.NONE;
    }

    /**
     * @param maxCatchUpRounds 0 turns the catch-up off (a plain walk, which can miss moving tasks);
     *                         1 is the seed's single pass; more rounds help where tasks keep moving
     *                         during the catch-up itself, each re-reading the newest skew window
     */
    public TaskWalker(TaskListing listing, Duration skew, int maxCatchUpRounds, WalkListener listener) {
        if (skew.isNegative() || maxCatchUpRounds < 0) {
            throw new IllegalArgumentException("skew and maxCatchUpRounds must not be negative");
        }
        this.listing = listing;
        this.skew = skew;
        this.maxCatchUpRounds = maxCatchUpRounds;
        this.listener = listener;
    }

    /** The pages of one walk, lazily. A refused call surfaces as {@link ListingException}. */
    public Iterator<ListTasksResponse> pages(ListFilter filter) {
        return new Iterator<>() {
            private String token = "";
            private boolean done;

            @Override
            public boolean hasNext() {
                return !done;
            }

            @Override
            public ListTasksResponse next() {
                if (done) {
                    throw new NoSuchElementException();
                }
                ListTasksResponse page = listing.list(filter.request(token));
                String next = page.getNextPageToken();
                if (!next.isEmpty() && next.equals(token)) {
                    throw new IllegalStateException("The server returned the same page token twice; stopping the walk");
                }
                token = next;
                done = next.isEmpty();
                return page;
            }
        };
    }

    /**
     * One walk without catch-up, handing each page to {@code consumer} as it arrives (memory stays
     * bounded however many tasks there are). Restarts once on a page-token refusal, so the consumer
     * must tolerate seeing a task again. Returns the stats and, as {@code newest}, the first page's
     * newest status timestamp (null when nothing matched).
     */
    public PassResult walk(ListFilter filter, Consumer<ListTasksResponse> consumer) {
        long started = System.nanoTime();
        Counters counters = new Counters();
        Pass pass = walk(filter, WalkListener.Pass.MAIN, null, counters, consumer);
        WalkStats stats = new WalkStats(counters.pages, counters.rows, 0, 0, counters.tokenErrors,
                Duration.ofNanos(System.nanoTime() - started));
        WalkMetrics.record(stats);
        return new PassResult(stats, pass.newest);
    }

    /** What {@link #walk(ListFilter, java.util.function.Consumer)} did. */
    public record PassResult(WalkStats stats, Instant newest) {
    }

    /** Every task the filter selects, including tasks that changed state while the walk ran. */
    public WalkResult listAll(ListFilter filter) {
        long started = System.nanoTime();
        Counters counters = new Counters();
        Map<String, Task> seen = new LinkedHashMap<>();

        Instant newest = walk(filter, WalkListener.Pass.MAIN, seen, counters, page -> {
        }).newest;
        int rounds = 0;
        while (newest != null && rounds < maxCatchUpRounds) {
            Instant since = newest.minus(skew());
            if (filter.statusTimestampAfter() != null && filter.statusTimestampAfter().isAfter(since)) {
                since = filter.statusTimestampAfter();
            }
            Pass catchUp = walk(filter.withStatusTimestampAfter(since), WalkListener.Pass.CATCH_UP, seen, counters, page -> {
            });
            rounds++;
            if (catchUp.changed == 0) {
                break; // nothing moved since the previous pass: the picture is complete
            }
            newest = catchUp.newest;
        }
        WalkStats stats = new WalkStats(counters.pages, counters.rows, counters.catchUpRows, rounds, counters.tokenErrors,
                Duration.ofNanos(System.nanoTime() - started));
        LOG.log(Level.INFO, "ListTasks walk: {0}", stats);
        WalkMetrics.record(stats);
        return new WalkResult(seen, stats);
    }

    /** The catch-up skew: the one given, else the server's published one, else {@link #DEFAULT_SKEW}. */
    public Duration skew() {
        if (skew == null) {
            skew = listing.publishedSkew().orElse(DEFAULT_SKEW);
        }
        return skew;
    }

    /** One pass; merges into {@code seen} when given, counting tasks newer than their previous copy. */
    private Pass walk(ListFilter filter, WalkListener.Pass kind, Map<String, Task> seen, Counters counters,
            Consumer<ListTasksResponse> consumer) {
        for (int attempt = 1;; attempt++) {
            Pass pass = new Pass();
            try {
                Iterator<ListTasksResponse> pages = pages(filter);
                int number = 0;
                while (pages.hasNext()) {
                    ListTasksResponse page = pages.next();
                    counters.pages++;
                    number++;
                    if (number == 1 && page.getTasksCount() > 0) {
                        pass.newest = timestamp(page.getTasks(0));
                    }
                    for (Task task : page.getTasksList()) {
                        if (kind == WalkListener.Pass.MAIN) {
                            counters.rows++;
                        } else {
                            counters.catchUpRows++;
                        }
                        if (seen != null) {
                            Task before = seen.put(task.getId(), task);
                            if (before == null || timestamp(task).isAfter(timestamp(before))) {
                                pass.changed++;
                            }
                        }
                    }
                    consumer.accept(page);
                    listener.onPage(kind, number, page);
                }
                return pass;
            } catch (ListingException e) {
                if (!e.isPageTokenError() || attempt > 1) {
                    throw e;
                }
                counters.tokenErrors++;
                LOG.log(Level.WARNING, "Page token refused ({0}); restarting the {1} pass once", e.getMessage(), kind);
            }
        }
    }

    private static Instant timestamp(Task task) {
        var ts = task.getStatus().getTimestamp();
        return Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos());
    }

    private static final class Pass {
        int changed;
        Instant newest;
    }

    private static final class Counters {
        int pages;
        int rows;
        int catchUpRows;
        int tokenErrors;
    }
}
