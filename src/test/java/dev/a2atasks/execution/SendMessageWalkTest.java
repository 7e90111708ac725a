package dev.a2atasks.execution;

import static dev.a2atasks.execution.WritePathParityTest.message;
import static dev.a2atasks.execution.WritePathParityTest.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.a2atasks.client.GrpcTaskListing;
import dev.a2atasks.client.ListFilter;
import dev.a2atasks.client.TaskListing;
import dev.a2atasks.client.TaskWalker;
import dev.a2atasks.client.WalkListener;
import dev.a2atasks.client.WalkResult;
import dev.a2atasks.proto.v1.A2AServiceGrpc;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The seed scenario with real write traffic: while the client's {@code listAll} walks 1,000
 * tasks 50 at a time, 10 concurrent clients create tasks and advance tasks (new ones and the
 * pre-existing ones) with SendMessage over gRPC, at least 10 changes per page. The writers stop
 * when the main pass ends; the catch-up then runs against a quiet store. Over 5 seeds, the result
 * holds every task of the scope, each in its final state: 0 missed.
 */
@QuarkusTest
class SendMessageWalkTest extends BindingTest {

    private static final int EXISTING = 1_000;
    private static final int WRITERS = 10;
    private static final int CHANGES_PER_PAGE = 10;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 4, 5 })
    void noTaskIsMissedWhileTenClientsSendMessages(long seed) throws Exception {
        String tenant = "SendMessageWalkTest-" + seed;
        db.clearTenant(tenant);
        db.execute("INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts) SELECT '" + tenant
                + "', 'walker', 'old-' || lpad(g::text, 4, '0'), 'ctx', 'TASK_STATE_WORKING', "
                // spread over the ten minutes before the walk, the newest 5 s old: the catch-up (from the
                // newest task the walk saw, minus 2 s of skew) then reads the changed tasks, not the scope
                + "now() - interval '10 minutes' + g * interval '595 milliseconds' FROM generate_series(1, " + EXISTING + ") AS g");
        String bearer = Tokens.valid(tenant, "walker");

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger changes = new AtomicInteger();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> writers = new ArrayList<>();
        try (GrpcChannels channels = new GrpcChannels(root)) {
            for (int w = 0; w < WRITERS; w++) {
                Random random = new Random(seed * 100 + w);
                A2AServiceGrpc.A2AServiceBlockingStub stub = channels.stub(bearer);
                Thread writer = new Thread(() -> {
                    List<String> waiting = new ArrayList<>(); // this writer's tasks in INPUT_REQUIRED
                    try {
                        while (running.get()) {
                            int action = random.nextInt(3);
                            if (action == 0 || (action == 1 && waiting.isEmpty())) {
                                waiting.add(stub.sendMessage(request(message("input please", null, null))).getTask().getId());
                            } else if (action == 1) {
                                stub.sendMessage(request(message("answer", waiting.remove(waiting.size() - 1), null)));
                            } else {
                                String old = String.format("old-%04d", 1 + random.nextInt(EXISTING));
                                try {
                                    stub.sendMessage(request(message("go on", old, null)));
                                } catch (io.grpc.StatusRuntimeException terminal) {
                                    // already completed by an earlier message: a refusal, no change
                                    assertEquals(io.grpc.Status.Code.FAILED_PRECONDITION, terminal.getStatus().getCode());
                                    continue;
                                }
                            }
                            changes.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "sender-" + w);
                writers.add(writer);
            }
            WalkListener pacing = (pass, number, page) -> {
                if (pass != WalkListener.Pass.MAIN) {
                    return;
                }
                if (page.getNextPageToken().isEmpty()) {
                    running.set(false); // the main pass is over: the catch-up meets a quiet store
                    for (Thread writer : writers) {
                        join(writer);
                    }
                    return;
                }
                int target = changes.get() + CHANGES_PER_PAGE;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (changes.get() < target && failures.isEmpty() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            };
            writers.forEach(Thread::start);
            WalkResult result;
            try (TaskListing listing = new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true, () -> bearer,
                    Duration.ofSeconds(30))) {
                result = new TaskWalker(listing, Duration.ofSeconds(2), 1, pacing).listAll(ListFilter.all().withPageSize(50));
            } finally {
                running.set(false);
                for (Thread writer : writers) {
                    join(writer);
                }
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertTrue(changes.get() >= 19 * CHANGES_PER_PAGE, "changes during the walk: " + changes.get());

            Map<String, String> stored = new HashMap<>();
            db.queryText("SELECT id || ' ' || state FROM tasks WHERE tenant = '" + tenant + "' AND owner = 'walker'").lines()
                    .forEach(line -> stored.put(line.split(" ")[0], line.split(" ")[1]));
            Map<String, String> walked = new HashMap<>();
            for (Task task : result.tasks().values()) {
                walked.put(task.getId(), task.getStatus().getState().name());
            }
            assertEquals(stored.size(), walked.size(), "tasks in the scope vs tasks the walk returned");
            assertEquals(stored, walked, "every task, in its final state");
            assertTrue(result.stats().catchUpRows() < stored.size() / 2, "the catch-up read what changed, not the scope: " + result.stats());
            System.out.printf("seed %d: %d changes by %d clients during the walk; %d of %d tasks, all in their final state (%s)%n",
                    seed, changes.get(), WRITERS, walked.size(), stored.size(), result.stats());
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
