package dev.a2atasks.mirror;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Prometheus;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;

/**
 * Mirrors configured in a2a.mirror.<name>.* run by themselves on their interval: one copies the
 * source's tasks; the other, stored under tenant "" with a token file holding a token the source
 * refuses, tries once and then waits, and syncs as soon as the file gets a good token. A mirror's
 * owner can ask for a reconciliation over HTTP; nobody else can.
 */
@QuarkusTest
@TestProfile(MirrorJobTest.ConfiguredMirror.class)
class MirrorJobTest extends BindingTest {

    static final int PORT = 18391;
    static final String SOURCE_TENANT = "MirrorJobTest-source";
    static final String LOCAL_TENANT = "MirrorJobTest-local";
    // One fixed path: this class is loaded twice (by JUnit and by Quarkus), a temp file would be two files.
    static final Path TOKEN_FILE = Path.of("target", "MirrorJobTest-token.jwt").toAbsolutePath();

    public static class ConfiguredMirror implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Files.writeString(TOKEN_FILE, "not-a-token\n");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return Map.ofEntries(
                    Map.entry("quarkus.http.test-port", Integer.toString(PORT)),
                    Map.entry("a2a.mirror.job-test.endpoint", "127.0.0.1:" + PORT),
                    Map.entry("a2a.mirror.job-test.plaintext", "true"),
                    Map.entry("a2a.mirror.job-test.bearer-token", Tokens.validOutsideQuarkus(SOURCE_TENANT, "remote")),
                    Map.entry("a2a.mirror.job-test.tenant", LOCAL_TENANT),
                    Map.entry("a2a.mirror.job-test.owner", "copies"),
                    Map.entry("a2a.mirror.job-test.interval", "500ms"),
                    Map.entry("a2a.mirror.refused.endpoint", "http://127.0.0.1:" + PORT + "/"),
                    Map.entry("a2a.mirror.refused.binding", "http"),
                    Map.entry("a2a.mirror.refused.bearer-token-file", TOKEN_FILE.toString()),
                    Map.entry("a2a.mirror.refused.tenant", ""),
                    Map.entry("a2a.mirror.refused.owner", "refused-copies"),
                    Map.entry("a2a.mirror.refused.interval", "200ms"),
                    Map.entry("a2a.mirror.refused.max-backoff", "1h"));
        }
    }

    @Test
    void configuredMirrorSyncsOnItsOwn() {
        db.clearTenant(LOCAL_TENANT);
        db.clearTenant(SOURCE_TENANT);
        db.execute("DELETE FROM mirror_marks WHERE mirror = 'job-test'");
        for (int i = 0; i < 12; i++) {
            db.insertTask(SOURCE_TENANT, "remote", "remote-" + i, "", "TASK_STATE_WORKING", Instant.now().minusSeconds(100 - i));
        }
        String local = Tokens.valid(LOCAL_TENANT, "copies");
        assertEquals(12, await(() -> api("GRPC").list(local, Map.of()).getTotalSize(), 12), "the mirror job copied the source's tasks");
        // The mark moves after the sync's last page is copied: copies can be visible a moment before it.
        assertEquals(1, await(() -> (int) db.queryLong("SELECT count(*) FROM mirror_marks WHERE mirror = 'job-test'"), 1),
                "its mark was persisted");
        // The operator sees it too: copies written, and the lag behind the newest source change (100 - 11 s ago).
        Prometheus.Delta metrics = new Prometheus.Delta(Map.of(), Prometheus.scrape());
        assertTrue(metrics.now("a2a_mirror_tasks_upserted_total", "source", "job-test") >= 12);
        double lag = metrics.now("a2a_mirror_lag_seconds", "source", "job-test");
        assertTrue(lag >= 89 && lag < 200, "lag " + lag);

        // On demand: the copies' owner may reconcile; a task deleted at the source goes.
        db.execute("DELETE FROM tasks WHERE tenant = '" + SOURCE_TENANT + "' AND id = 'remote-3'");
        String answer = given().urlEncodingEnabled(false).header("Authorization", "Bearer " + local)
                .post(root + "mirrors/job-test:reconcile").then().statusCode(200).extract().asString();
        assertTrue(answer.contains("\"retired\":1"), answer);
        assertEquals(11, api("GRPC").list(local, Map.of()).getTotalSize());

        // Anyone else, or a name that does not run here: the same refusal, so names cannot be probed.
        String stranger = given().urlEncodingEnabled(false).header("Authorization", "Bearer " + Tokens.valid(LOCAL_TENANT, "someone-else"))
                .post(root + "mirrors/job-test:reconcile").then().statusCode(400).extract().asString();
        String unknown = given().urlEncodingEnabled(false).header("Authorization", "Bearer " + local)
                .post(root + "mirrors/no-such-mirror:reconcile").then().statusCode(400).extract().asString();
        assertEquals(stranger, unknown);
        given().urlEncodingEnabled(false).post(root + "mirrors/job-test:reconcile").then().statusCode(401);
    }

    @Inject
    MirrorJob job;

    @Test
    void refusedCredentialsWaitForANewTokenInTheFile() throws IOException {
        {
            db.execute("DELETE FROM tasks WHERE tenant = '' AND owner = 'refused-copies'");
            for (int i = 0; i < 5; i++) {
                db.insertTask("", "token-owner", "r-" + i, "", "TASK_STATE_WORKING", Instant.now().minusSeconds(50 - i));
            }
            // The token in the file is refused (since start-up). Another refused token is written: the
            // change is noticed at the next interval and tried once, then nothing for 3 s (15 intervals).
            await(() -> job.status("refused").orElseThrow().consecutiveFailures(), 1);
            long before = job.status("refused").orElseThrow().attempts();
            Map<String, Double> scraped = Prometheus.scrape();
            replaceToken("still-not-a-token");
            LockSupport.parkNanos(Duration.ofSeconds(3).toNanos());
            MirrorJob.SourceStatus status = job.status("refused").orElseThrow();
            assertEquals(before + 1, status.attempts(), "a changed token is tried at once, a refused one not every interval");
            new Prometheus.Delta(scraped, Prometheus.scrape()).is(1, "a2a_mirror_sync_failures_total", "source", "refused");
            assertTrue(status.lastFailure().contains("UNAUTHENTICATED") && status.lastFailure().contains("127.0.0.1:" + PORT),
                    status.lastFailure());
            assertEquals(0, copies());

            replaceToken(Tokens.valid("", "token-owner"));
            assertEquals(5, await(this::copies, 5), "a new token in the file is used at the next interval");
            // The job notes its recovery just after the sync's rows are committed: wait for it.
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (job.status("refused").orElseThrow().consecutiveFailures() != 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
            assertEquals(0, job.status("refused").orElseThrow().consecutiveFailures());
        }
    }

    /** As a secret store rotates a mounted file: whole, by rename, never half-written. */
    private static void replaceToken(String token) throws IOException {
        Path next = TOKEN_FILE.resolveSibling(TOKEN_FILE.getFileName() + ".next");
        Files.writeString(next, token);
        Files.move(next, TOKEN_FILE, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private int copies() {
        return (int) db.queryLong("SELECT count(*) FROM tasks WHERE tenant = '' AND owner = 'refused-copies'");
    }

    private static int await(IntSupplier value, int expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        int seen;
        while ((seen = value.getAsInt()) < expected && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // the job runs on its own schedule
        }
        return seen;
    }
}
