package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.proto.v1.TaskStatus;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.task.store.TaskStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;

/**
 * The seed article's scenario through the real server with the client API: ten tasks a second
 * apart, pages of four, t01 completes after page 1. Without catch-up the walk misses t01; with
 * it, t01 is found completed. Prints the article's output shape; this is also the demo of docs/client.md.
 */
@QuarkusTest
class SeedScenarioTest extends BindingTest {

    @Inject
    TaskStore store;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void catchUpFindsTheTaskThatMovedWhileWePaged(String binding) {
        StringBuilder out = new StringBuilder();

        out.append("catch-up off\n");
        WalkResult off = run(binding, "off", 0, out);
        assertEquals(9, off.tasks().size());
        assertFalse(off.tasks().containsKey("t01"));
        out.append("  saw ").append(off.tasks().size()).append(" of 10 tasks; t01 -> MISSING\n");

        out.append("catch-up on\n");
        WalkResult on = run(binding, "on", 1, out);
        assertEquals(10, on.tasks().size());
        assertEquals(TaskState.TASK_STATE_COMPLETED, on.tasks().get("t01").getStatus().getState());
        out.append("  saw ").append(on.tasks().size()).append(" of 10 tasks; t01 -> ")
                .append(on.tasks().get("t01").getStatus().getState()).append('\n');
        assertEquals(1, on.stats().catchUpRounds(), on.stats().toString());

        String tenant = freshTenant("misuse", api("HTTP+JSON"));
        seedTen(tenant);
        try (TaskListing alice = listing(binding, Tokens.valid(tenant, "alice"));
                TaskListing mallory = listing(binding, Tokens.valid(tenant, "mallory"))) {
            String token = alice.list(ListFilter.all().withPageSize(4).request("")).getNextPageToken();
            ListingException other = assertThrows(ListingException.class,
                    () -> mallory.list(ListFilter.all().withPageSize(4).request(token)));
            ListingException filter = assertThrows(ListingException.class,
                    () -> alice.list(ListFilter.all().withPageSize(4).withStatus(TaskState.TASK_STATE_COMPLETED).request(token)));
            assertTrue(other.isPageTokenError() && filter.isPageTokenError());
            out.append("token reused by another principal: ").append(message(other)).append('\n');
            out.append("token reused with a new status filter: ").append(message(filter)).append('\n');
        }
        System.out.println("--- seed scenario over " + binding + "\n" + out);
    }

    private WalkResult run(String binding, String name, int catchUpRounds, StringBuilder out) {
        String tenant = freshTenant("seed-" + name + "-" + binding, api("HTTP+JSON"));
        seedTen(tenant);
        Caller alice = new Caller(tenant, "alice");
        List<List<String>> catchUp = new ArrayList<>(); // one list per catch-up round
        WalkListener listener = (pass, number, page) -> {
            if (pass == WalkListener.Pass.MAIN) {
                out.append("  page ").append(number).append(": ").append(ids(page));
                if (number == 1) {
                    out.append("     <- t01 completes after this page is served");
                    complete(alice, "t01");
                }
                out.append('\n');
            } else {
                if (number == 1) {
                    catchUp.add(new ArrayList<>());
                }
                catchUp.get(catchUp.size() - 1).addAll(ids(page));
            }
        };
        try (TaskListing listing = listing(binding, Tokens.valid(tenant, "alice"))) {
            WalkResult result = new TaskWalker(listing, Duration.ofSeconds(2), catchUpRounds, listener)
                    .listAll(ListFilter.all().withPageSize(4));
            if (catchUpRounds > 0) {
                for (int round = 0; round < catchUp.size(); round++) {
                    out.append("  catch-up ").append(round + 1).append(": ").append(catchUp.get(round)).append('\n');
                }
                // Everything from t09's timestamp minus the 2 s skew (inclusive): t01 and the three newest.
                assertEquals(List.of(List.of("t01", "t09", "t08", "t07")), catchUp);
                assertEquals(4, result.stats().catchUpRows());
            } else {
                assertEquals(0, result.stats().catchUpRows());
            }
            assertEquals(3, result.stats().pages() - (catchUpRounds > 0 ? result.stats().catchUpRounds() : 0));
            return result;
        }
    }

    private void seedTen(String tenant) {
        Instant base = Instant.now().minusSeconds(60);
        for (int i = 0; i < 10; i++) {
            db.insertTask(tenant, "alice", String.format("t%02d", i), "", "TASK_STATE_WORKING", base.plusSeconds(i));
        }
    }

    private void complete(Caller caller, String id) {
        try {
            VertxContextSupport.subscribeAndAwait(() -> store.updateStatus(caller, id,
                    TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED).build()));
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    private TaskListing listing(String binding, String token) {
        return binding.equals("grpc")
                ? new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true, () -> token, Duration.ofSeconds(30))
                : new HttpTaskListing(URI.create(root.toString()), () -> token, Duration.ofSeconds(30));
    }

    private static String message(ListingException e) {
        return e.getMessage().substring(e.getMessage().indexOf(": ") + 2);
    }
}
