package dev.a2atasks.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.Tokens;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * {@code a2a.rate-limit.shared=true} on two packaged replicas of one database: a client that
 * alternates between them in a tight loop of walk starts gets the walk-start burst once, not once
 * per replica; the refusal names the limit and its delay. Runs after {@code package}, in {@code verify}.
 */
class SharedRateLimitIT {

    private static final int BURST = 60; // a2a.rate-limit.walk-start.burst (shipped default)
    private static final double PER_SECOND = 5;

    @Test
    void twoReplicasShareOneBucketPerCaller() throws Exception {
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start()) {
            Map<String, String> shared = Map.of("a2a.rate-limit.shared", "true");
            try (PackagedServer a = PackagedServer.start("shared-limit-a", database, shared);
                    PackagedServer b = PackagedServer.start("shared-limit-b", database, shared)) {
                HttpClient http = HttpClient.newHttpClient();
                String bearer = Tokens.validOutsideQuarkus("", "looper");
                long started = System.nanoTime();
                int passed = 0;
                HttpResponse<String> refused = null;
                for (int i = 0; i < 1000 && refused == null; i++) {
                    PackagedServer replica = i % 2 == 0 ? a : b;
                    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(replica.url("/tasks")))
                            .header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0").build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (answer.statusCode() == 200) {
                        passed++;
                    } else {
                        refused = answer;
                    }
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf("shared limit: %d walk starts passed on two replicas in %.2f s%n", passed, seconds);
                assertTrue(refused != null, "refused");
                assertEquals(429, refused.statusCode(), refused.body());
                assertTrue(refused.body().contains("\"limit\":\"walk-start\""), refused.body());
                assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null));
                assertTrue(passed >= BURST, passed + " passed");
                assertTrue(passed <= BURST + PER_SECOND * seconds + 2,
                        passed + " passed in " + seconds + " s: more than one shared burst and its refill (each replica alone would allow "
                                + BURST + ")");

                // Another caller has its own bucket; both callers' rows lead with their scope.
                HttpResponse<String> other = http.send(HttpRequest.newBuilder(URI.create(b.url("/tasks")))
                        .header("Authorization", "Bearer " + Tokens.validOutsideQuarkus("", "bystander")).header("A2A-Version", "1.0")
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, other.statusCode(), other.body());
                try (Connection db = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres",
                        "postgres", "postgres"); Statement sql = db.createStatement();
                        ResultSet rows = sql.executeQuery("SELECT tenant, owner, request_class FROM rate_limit_buckets ORDER BY owner")) {
                    assertTrue(rows.next());
                    assertEquals("bystander", rows.getString("owner"));
                    assertTrue(rows.next());
                    assertEquals("looper", rows.getString("owner"));
                    assertEquals("walk-start", rows.getString("request_class"));
                }
            }
        }
    }
}
