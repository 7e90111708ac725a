package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.a2atasks.paging.TimeSource;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;

/** An expired page token restarts the walk once, counted; a second refusal reaches the caller. */
@QuarkusTest
class TokenRestartTest extends BindingTest {

    /** Server time, moved forward by the tests (page tokens expire after 600 s). */
    private static final AtomicLong SHIFT_SECONDS = new AtomicLong();

    @AfterEach
    void realTime() {
        SHIFT_SECONDS.set(0);
        QuarkusMock.installMockForType(new TimeSource(), TimeSource.class);
    }

    private String seed() {
        String tenant = freshTenant("restart", api("GRPC"));
        Instant base = Instant.parse("2026-03-01T00:00:00Z");
        for (int i = 0; i < 9; i++) {
            db.insertTask(tenant, "alice", "task-" + i, "", "TASK_STATE_WORKING", base.plusSeconds(i));
        }
        QuarkusMock.installMockForType(new TimeSource() {
            @Override
            public Instant now() {
                return Instant.now().plusSeconds(SHIFT_SECONDS.get());
            }
        }, TimeSource.class);
        return tenant;
    }

    private TaskListing listing(String tenant) {
        return new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true, () -> Tokens.valid(tenant, "alice"),
                Duration.ofSeconds(30));
    }

    @Test
    void anExpiredTokenRestartsTheWalkOnce() {
        String tenant = seed();
        AtomicLong firstPages = new AtomicLong();
        WalkListener expireOnce = (pass, number, page) -> {
            if (number == 1 && pass == WalkListener.Pass.MAIN && firstPages.incrementAndGet() == 1) {
                SHIFT_SECONDS.addAndGet(601); // the token just issued is now too old
            }
        };
        try (TaskListing listing = listing(tenant)) {
            WalkResult result = new TaskWalker(listing, Duration.ofSeconds(2), 1, expireOnce)
                    .listAll(ListFilter.all().withPageSize(4));
            assertEquals(9, result.tasks().size());
            assertEquals(1, result.stats().tokenErrors());
            assertEquals(4 + 9, result.stats().rows(), "the refused attempt's rows count too");
        }
    }

    @Test
    void aSecondRefusalSurfaces() {
        String tenant = seed();
        WalkListener alwaysExpire = (pass, number, page) -> SHIFT_SECONDS.addAndGet(601);
        try (TaskListing listing = listing(tenant)) {
            ListingException e = assertThrows(ListingException.class,
                    () -> new TaskWalker(listing, Duration.ofSeconds(2), 1, alwaysExpire).listAll(ListFilter.all().withPageSize(4)));
            assertTrue(e.isPageTokenError());
            assertTrue(e.getMessage().contains("pageToken expired"), e.getMessage());
        }
    }
}
