package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/**
 * 2,000 tasks walked 50 at a time while another thread keeps changing the status of random tasks
 * through the service's write path (at least 500 changes during the walk). With catch-up,
 * listAll returns every task exactly once, none older than at walk start; without, it misses
 * the tasks that moved ahead of the cursor.
 */
@QuarkusTest
class RandomizedWalkTest extends BindingTest {

    private static final int TASKS = 2_000;
    private static final int PAGE = 50;
    private static final int CHANGES_PER_PAGE = 13;
    private static final int MIN_CHANGES = 500;
    private static final TaskState[] STATES = { TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED,
            TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_FAILED };
    private static final Map<Long, Integer> MISSES_WITHOUT_CATCH_UP = new HashMap<>();

    @Inject
    TaskStore store;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 4, 5 })
    void listAllReturnsEveryTaskOnceAndNoOlderThanAtStart(long seed) throws Exception {
        Outcome on = run(seed, 1);
        assertEquals(TASKS, on.result.tasks().size(), "every task, exactly once (keys of a map)");
        assertEquals(0, on.stale, "tasks older than at walk start");
        assertTrue(on.changesDuringWalk >= MIN_CHANGES, "changes during the walk: " + on.changesDuringWalk);
        assertTrue(on.result.stats().catchUpRows() > 0);

        Outcome off = run(seed, 0);
        assertTrue(off.changesDuringWalk >= MIN_CHANGES, "changes during the walk: " + off.changesDuringWalk);
        int missed = TASKS - off.result.tasks().size();
        MISSES_WITHOUT_CATCH_UP.put(seed, missed);
        System.out.printf("seed %d: catch-up on: %d of %d tasks (%s); catch-up off: missed %d of %d tasks%n",
                seed, on.result.tasks().size(), TASKS, on.result.stats(), missed, TASKS);
    }

    @AfterAll
    void catchUpPreventedMisses() {
        int total = MISSES_WITHOUT_CATCH_UP.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("tasks a plain walk missed, per seed: " + MISSES_WITHOUT_CATCH_UP + " (total " + total + ")");
        assertTrue(total > 0, "the plain walk should miss moving tasks");
    }

    record Outcome(WalkResult result, int stale, int changesDuringWalk) {
    }

    private Outcome run(long seed, int catchUpRounds) throws Exception {
        String tenant = getClass().getSimpleName() + "-" + seed + "-" + catchUpRounds;
        db.clearTenant(tenant);
        db.execute("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts) "
                + "SELECT '" + tenant + "', 'walker', 'task-' || lpad(g::text, 5, '0'), '', 'TASK_STATE_WORKING', "
                + "now() - interval '1 hour' + g * interval '10 milliseconds' FROM generate_series(1, " + TASKS + ") AS g");
        Map<String, Instant> atStart = new HashMap<>();
        db.queryText("SELECT id || ' ' || (extract(epoch from status_ts) * 1000000)::bigint FROM tasks WHERE tenant = '" + tenant + "'")
                .lines().forEach(line -> {
                    String[] parts = line.split(" ");
                    long micros = Long.parseLong(parts[1]);
                    atStart.put(parts[0], Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000));
                });

        Writer writer = new Writer(new Caller(tenant, "walker"), new Random(seed));
        Thread thread = new Thread(writer, "writer-" + seed);
        AtomicInteger changesAtWalkEnd = new AtomicInteger();
        WalkListener pacing = (pass, number, page) -> {
            if (pass != WalkListener.Pass.MAIN) {
                return;
            }
            if (page.getNextPageToken().isEmpty()) {
                // Tasks changed during the walk move ahead of the cursor, so the main pass can have
                // fewer than TASKS / PAGE pages: top the changes up to the minimum before it ends.
                writer.awaitTotal(MIN_CHANGES);
                changesAtWalkEnd.set(writer.stop());
            } else {
                writer.awaitChanges(CHANGES_PER_PAGE); // real concurrency, paced so the walk overlaps >= 500 changes
            }
        };
        thread.start();
        WalkResult result;
        try (TaskListing listing = new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true,
                () -> Tokens.valid(tenant, "walker"), Duration.ofSeconds(30))) {
            result = new TaskWalker(listing, Duration.ofSeconds(2), catchUpRounds, pacing)
                    .listAll(ListFilter.all().withPageSize(PAGE));
        } finally {
            writer.stop();
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertFalse(thread.isAlive());
        if (writer.failure != null) {
            throw new AssertionError("writer failed", writer.failure);
        }
        int stale = 0;
        for (Task task : result.tasks().values()) {
            var ts = task.getStatus().getTimestamp();
            if (Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos()).isBefore(atStart.get(task.getId()))) {
                stale++;
            }
        }
        return new Outcome(result, stale, changesAtWalkEnd.get());
    }

    /** Changes random tasks through TaskStore until stopped; lets the walk wait for a number of changes. */
    private final class Writer implements Runnable {
        private final Caller caller;
        private final Random random;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private int changes;
        private volatile Throwable failure;

        Writer(Caller caller, Random random) {
            this.caller = caller;
            this.random = random;
        }

        @Override
        public void run() {
            try {
                while (running.get()) {
                    String id = String.format("task-%05d", 1 + random.nextInt(TASKS));
                    TaskState state = STATES[random.nextInt(STATES.length)];
                    VertxContextSupport.subscribeAndAwait(() -> store.updateStatus(caller, id,
                            TaskStatus.newBuilder().setState(state).build()));
                    lock.lock();
                    try {
                        changes++;
                        changed.signalAll();
                    } finally {
                        lock.unlock();
                    }
                }
            } catch (Throwable e) {
                failure = e;
                lock.lock();
                try {
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }

        void awaitChanges(int count) {
            lock.lock();
            try {
                awaitTotal(changes + count);
            } finally {
                lock.unlock();
            }
        }

        void awaitTotal(int target) {
            lock.lock();
            try {
                while (changes < target && failure == null) {
                    if (!changed.await(30, TimeUnit.SECONDS)) {
                        throw new AssertionError("writer stalled");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            } finally {
                lock.unlock();
            }
        }

        /** Stops after the change in progress; returns the changes made so far. */
        int stop() {
            running.set(false);
            lock.lock();
            try {
                return changes;
            } finally {
                lock.unlock();
            }
        }
    }

    @Test
    void aRepeatedPageTokenStopsTheWalk() {
        TaskListing stuck = request -> dev.a2atasks.proto.v1.ListTasksResponse.newBuilder().setNextPageToken("same").build();
        var pages = new TaskWalker(stuck).pages(ListFilter.all());
        pages.next();
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, pages::next);
        assertTrue(e.getMessage().contains("same page token twice"));
    }
}
