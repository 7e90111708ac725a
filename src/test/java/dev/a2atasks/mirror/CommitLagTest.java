package dev.a2atasks.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.client.GrpcTaskListing;
import dev.a2atasks.client.HttpTaskListing;
import dev.a2atasks.client.ListFilter;
import dev.a2atasks.client.TaskWalker;
import dev.a2atasks.client.WalkListener;
import dev.a2atasks.client.WalkResult;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.task.store.TaskStore;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/**
 * Issue 16, commit lag: a writer holds its status-changing transaction open for 12 s (its
 * {@code now()} is 12 s old at commit) while a mirror syncs every second and other tasks keep
 * changing. The database re-stamps the status at commit (migration V5), so the mirror's copy and
 * a {@code listAll} that started during the hold both end with the final state. The card of this
 * profile publishes a 3 s skew, and the client and the mirror, given no skew, use it.
 */
@QuarkusTest
@TestProfile(CommitLagTest.PublishedSkew.class)
class CommitLagTest extends BindingTest {

    public static class PublishedSkew implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("a2a.card.catch-up-skew", "3s");
        }
    }

    private static final String OWNER = "remote-agent";
    private static final int TASKS = 60;
    private static final Duration HOLD = Duration.ofSeconds(12);

    @Inject
    Mirror mirror;

    @Inject
    TaskStore store;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void clientsReadThePublishedSkew() {
        String token = Tokens.valid("any", "anyone");
        URI card = URI.create(root + ".well-known/agent-card.json");
        try (var grpc = new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true, () -> token, Duration.ofSeconds(10), card);
                var http = new HttpTaskListing(URI.create(root + "some/prefix"), () -> token, Duration.ofSeconds(10));
                var noCard = new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true, () -> token, Duration.ofSeconds(10))) {
            assertEquals(Duration.ofSeconds(3), new TaskWalker(grpc).skew());
            assertEquals(Duration.ofSeconds(3), new TaskWalker(http).skew(), "the card lives at the origin, whatever the path");
            assertEquals(TaskWalker.DEFAULT_SKEW, new TaskWalker(noCard).skew(), "no card known: the default");
            assertEquals(Duration.ofMillis(500), new TaskWalker(grpc, Duration.ofMillis(500), 1, WalkListener.NONE).skew(),
                    "a skew given wins");
        }
    }

    @Test
    void aTransactionHeldOpenDoesNotHideItsChange() throws Exception {
        String sourceTenant = freshTenant("source", api("GRPC"));
        String localTenant = freshTenant("local", api("GRPC"));
        db.execute("DELETE FROM mirror_marks WHERE mirror = 'commit-lag'");
        Caller remote = new Caller(sourceTenant, OWNER);
        Instant base = Instant.now().minus(Duration.ofHours(2));
        for (int i = 0; i < TASKS; i++) { // t00 is the oldest: a walk reaches it last
            db.insertTask(sourceTenant, OWNER, id(i), "ctx", "TASK_STATE_WORKING", base.plusSeconds(60L * i));
        }
        String token = Tokens.valid(sourceTenant, OWNER);
        String target = root.getHost() + ":" + root.getPort();
        MirrorSource source = new MirrorSource("commit-lag", target, "grpc", true, TokenSource.fixed(token),
                java.util.Optional.of(URI.create(root + ".well-known/agent-card.json")), new Caller(localTenant, "copies"), 0,
                false, java.util.Optional.empty(), 20, Duration.ofSeconds(30), Duration.ZERO, true, Duration.ofMinutes(1), 0);
        assertEquals(Duration.ofSeconds(3), mirror.sync(source).skew(), "the mirror uses the source's published skew");

        ExecutorService background = Executors.newFixedThreadPool(3);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        try {
            // Other tasks keep changing, so every reader's mark moves on past the held change.
            background.submit(() -> {
                for (int i = 0; running.get(); i++) {
                    String other = id(1 + i % (TASKS - 1));
                    run(failures, () -> VertxContextSupport.subscribeAndAwait(() -> store.updateStatus(remote, other,
                            TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING).build())));
                    LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
                }
            });
            background.submit(() -> { // the mirror, every second
                while (running.get()) {
                    run(failures, () -> mirror.sync(source));
                    LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
                }
            });

            Future<WalkResult> walk;
            CountDownLatch committed = new CountDownLatch(1);
            try (Connection held = dataSource.getConnection()) {
                held.setAutoCommit(false);
                try (PreparedStatement update = held.prepareStatement("UPDATE tasks SET state = 'TASK_STATE_COMPLETED',"
                        + " status_ts = now() WHERE tenant = ? AND owner = ? AND id = 't00'")) {
                    update.setString(1, sourceTenant);
                    update.setString(2, OWNER);
                    assertEquals(1, update.executeUpdate());
                }
                long heldAt = System.nanoTime();
                LockSupport.parkNanos(Duration.ofSeconds(4).toNanos());
                // A walk starts during the hold and reads its first page then; its next pages wait for the
                // commit, so it reaches t00's old place after it: the main pass cannot see the change, only
                // the catch-up can. (Paced by time alone, it could end before the commit when the other
                // tasks' changes had moved enough of them out of its way: CI saw a walk of 7 s.)
                walk = background.submit(() -> {
                    try (var listing = new GrpcTaskListing(target, true, () -> token, Duration.ofSeconds(30))) {
                        TaskWalker walker = new TaskWalker(listing, Duration.ofSeconds(3), 1, (pass, number, page) -> {
                            if (pass == WalkListener.Pass.MAIN && number == 1) {
                                await(committed);
                            } else if (pass == WalkListener.Pass.MAIN) {
                                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
                            }
                        });
                        return walker.listAll(ListFilter.all().withPageSize(5));
                    }
                });
                LockSupport.parkNanos(HOLD.toNanos() - (System.nanoTime() - heldAt));
                held.commit();
                committed.countDown();
                try (PreparedStatement lag = held.prepareStatement("SELECT extract(epoch FROM clock_timestamp() - status_ts) * 1000"
                        + " FROM tasks WHERE tenant = ? AND owner = ? AND id = 't00'")) {
                    lag.setString(1, sourceTenant);
                    lag.setString(2, OWNER);
                    try (ResultSet rs = lag.executeQuery()) {
                        rs.next();
                        double millis = rs.getDouble(1);
                        assertTrue(millis >= 0 && millis < 500, "visible " + millis + " ms after its status timestamp, not 12 s");
                    }
                }
                held.commit();
            }

            WalkResult result = walk.get(60, TimeUnit.SECONDS);
            assertEquals(TASKS, result.tasks().size(), "no task missed: " + result.stats());
            assertEquals(TaskState.TASK_STATE_COMPLETED, result.tasks().get("t00").getStatus().getState(),
                    "listAll started during the hold ends with the final state: " + result.stats());
            assertTrue(result.stats().catchUpRows() > 0, result.stats().toString());

            String local = Tokens.valid(localTenant, "copies");
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            TaskState copied;
            while ((copied = api("GRPC").get(local, null, "t00", "0").getStatus().getState()) != TaskState.TASK_STATE_COMPLETED
                    && System.nanoTime() < deadline) {
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
            assertEquals(TaskState.TASK_STATE_COMPLETED, copied, "the mirror's copy converges to the final state");
        } finally {
            running.set(false);
            background.shutdown();
            background.awaitTermination(30, TimeUnit.SECONDS);
        }
        assertEquals(List.of(), failures);
    }

    /** Waits for the held transaction's commit (bounded: a walk never waits forever). */
    private static void await(CountDownLatch committed) {
        try {
            if (!committed.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the held transaction did not commit within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String id(int i) {
        return String.format("t%02d", i);
    }

    private interface Step {
        void run() throws Throwable;
    }

    private static void run(List<Throwable> failures, Step step) {
        try {
            step.run();
        } catch (Throwable e) {
            failures.add(e);
        }
    }
}
