package dev.a2atasks.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * More simultaneous subscribers than the pool has connections (20): each snapshot is read on one
 * connection, so none waits for a second while holding the first. All 60 get their snapshot, none
 * is answered 500, and all close when the task ends.
 */
@QuarkusTest
class ManySubscribersTest extends BindingTest {

    private static final int SUBSCRIBERS = 60;

    @Test
    void sixtySimultaneousSubscribersOnATwentyConnectionPoolAllGetTheirSnapshotAndAllClose() throws Exception {
        String tenant = "ManySubscribersTest";
        db.clearTenant(tenant);
        long pk = db.insertTask(tenant, "alice", "busy", "ctx", "TASK_STATE_WORKING", Instant.now().minusSeconds(5));
        db.insertMessages(pk, 30);
        String token = Tokens.valid(tenant, "alice");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        AtomicInteger snapshots = new AtomicInteger();
        List<CompletableFuture<HttpResponse<Stream<String>>>> streams = new ArrayList<>();
        List<CompletableFuture<Long>> events = new ArrayList<>();
        for (int i = 0; i < SUBSCRIBERS; i++) {
            HttpRequest subscribe = HttpRequest.newBuilder(URI.create(root + "tasks/busy:subscribe"))
                    .header("Authorization", "Bearer " + token).header("A2A-Version", "1.0").header("Accept", "text/event-stream")
                    .GET().build();
            CompletableFuture<HttpResponse<Stream<String>>> response = http.sendAsync(subscribe, HttpResponse.BodyHandlers.ofLines());
            streams.add(response);
            events.add(response.thenApplyAsync(r -> r.body().filter(line -> line.startsWith("data: "))
                    .peek(line -> {
                        if (line.contains("\"task\"")) {
                            snapshots.incrementAndGet();
                        }
                    }).count()));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (snapshots.get() < SUBSCRIBERS && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        for (CompletableFuture<HttpResponse<Stream<String>>> response : streams) {
            assertEquals(200, response.get(1, TimeUnit.SECONDS).statusCode());
        }
        assertEquals(SUBSCRIBERS, snapshots.get(), "every subscriber got the task's snapshot");

        http.send(HttpRequest.newBuilder(URI.create(root + "tasks/busy:cancel")).header("Authorization", "Bearer " + token)
                .header("A2A-Version", "1.0").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        for (CompletableFuture<Long> stream : events) {
            assertEquals(2, stream.get(20, TimeUnit.SECONDS), "the snapshot, then the CANCELED status, then the end");
        }
        assertTrue(db.queryText("SELECT state FROM tasks WHERE tenant = '" + tenant + "'").contains("TASK_STATE_CANCELED"));
    }
}
