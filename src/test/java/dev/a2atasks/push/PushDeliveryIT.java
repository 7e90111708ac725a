package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.support.WebhookReceiver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Delivery across process lifetimes, with the packaged application as real child processes on
 * one PostgreSQL: a service stopped while a delivery waits for its retry delivers it after it is
 * started again (the outbox is the only state); two services delivering side by side deliver
 * every event exactly once, in order per task. Neither process writes a webhook secret to its
 * log, even at DEBUG. Runs after {@code package}, in {@code verify}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PushDeliveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String bearer = Tokens.validOutsideQuarkus("PushDeliveryIT", "alice");
    private EmbeddedPostgres database;

    @BeforeAll
    void startDatabase() throws Exception {
        database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").setServerConfig("synchronous_commit", "off").start();
    }

    @AfterAll
    void stopDatabase() throws Exception {
        if (database != null) {
            database.close();
        }
    }

    @Test
    void aDeliveryWaitingForItsRetryWhenTheServiceStopsIsMadeAfterItStartsAgain() throws Exception {
        String secret = "credentials-" + UUID.randomUUID();
        String token = "token-" + UUID.randomUUID();
        List<PackagedServer> lives = new ArrayList<>();
        try (WebhookReceiver webhook = new WebhookReceiver(List.of(503), 0)) {
            // A long first retry delay: the stop lands while the delivery waits for it.
            PackagedServer first = start("push-first", Duration.ofSeconds(5));
            lives.add(first);
            String taskId = send(first, webhook.url("/restart"), secret, token);
            webhook.await(1, 20);
            awaitRows("task_id = '" + taskId + "'", 5); // the agent's run is over: every event is owed
            awaitRows("state = 'PENDING' AND attempts = 1", 1);
            first.close(); // SIGTERM: the delivery is owed, waiting for its retry
            assertEquals(5, count("SELECT count(*) FROM push_outbox WHERE task_id = '" + taskId + "' AND state = 'PENDING'"),
                    "all five events still owed after the stop");
            assertEquals(1, webhook.received().size());

            PackagedServer second = start("push-second", Duration.ofSeconds(5));
            lives.add(second);
            List<WebhookReceiver.Received> got = webhook.await(6, 30);
            Thread.sleep(1_000);
            got = webhook.received();
            assertEquals(6, got.size(), "the refused attempt, then each of the five events once: " + got);
            List<Long> seqs = new ArrayList<>();
            for (WebhookReceiver.Received r : got.subList(1, got.size())) {
                String id = r.header("X-A2A-Delivery-Id");
                seqs.add(Long.parseLong(id.substring(id.lastIndexOf('/') + 1)));
                assertEquals("Bearer " + secret, r.header("Authorization"));
                assertEquals(token, r.header("X-A2A-Notification-Token"));
            }
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L), seqs);
            assertEquals(got.get(0).header("X-A2A-Delivery-Id"), got.get(1).header("X-A2A-Delivery-Id"), "the refused one came first again");
            assertEquals(0, count("SELECT count(*) FROM push_outbox WHERE task_id = '" + taskId + "'"));
        } finally {
            for (PackagedServer life : lives) {
                life.close();
            }
        }
        for (PackagedServer life : lives) {
            String log = Files.readString(life.log());
            assertFalse(log.contains(secret), life.name() + " logged the credentials");
            assertFalse(log.contains(token), life.name() + " logged the token");
            assertTrue(log.contains("DEBUG"), life.name() + " logged at DEBUG, so the check means something");
        }
    }

    @Test
    void twoServicesDeliverEveryEventExactlyOnceInOrderPerTask() throws Exception {
        int tasks = 20;
        try (WebhookReceiver webhook = new WebhookReceiver(); PackagedServer a = start("push-a", Duration.ofMillis(200));
                PackagedServer b = start("push-b", Duration.ofMillis(200))) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                ids.add(send(i % 2 == 0 ? a : b, webhook.url("/both"), "c" + i, "t" + i));
            }
            webhook.await(tasks * 5, 60);
            Thread.sleep(1_500);
            List<WebhookReceiver.Received> got = webhook.received();
            assertEquals(tasks * 5, got.size(), "every event of every task exactly once");
            Map<String, List<Long>> perTask = new HashMap<>();
            for (WebhookReceiver.Received r : got) {
                String[] id = r.header("X-A2A-Delivery-Id").split("/");
                perTask.computeIfAbsent(id[0], k -> new ArrayList<>()).add(Long.parseLong(id[2]));
            }
            assertEquals(tasks, perTask.size());
            for (String id : ids) {
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L), perTask.get(id), "task " + id + " in order");
            }
        }
    }

    private PackagedServer start(String name, Duration initialDelay) throws Exception {
        return PackagedServer.start(name, database, Map.of(
                "a2a.push.allow-list", "127.0.0.1/32",
                "a2a.push.timeout", "2s",
                "a2a.push.retry.initial-delay", initialDelay.toMillis() + "ms",
                "a2a.push.poll-interval", "200ms",
                "quarkus.log.category.\"dev.a2atasks\".level", "DEBUG",
                "quarkus.log.category.\"dev.a2atasks\".min-level", "DEBUG"));
    }

    private String send(PackagedServer server, String url, String secret, String token) throws Exception {
        String body = "{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"abcdef\"}]},"
                + "\"configuration\":{\"returnImmediately\":true,\"taskPushNotificationConfig\":{\"url\":\"" + url + "\",\"token\":\"" + token
                + "\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"" + secret + "\"}}}}";
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.url("/message:send")))
                .header("Authorization", "Bearer " + bearer).header("A2A-Version", "1.0").header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body()).at("/task/id").asText();
    }

    private void awaitRows(String where, long atLeast) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (count("SELECT count(*) FROM push_outbox WHERE " + where) < atLeast) {
            assertTrue(System.nanoTime() < deadline, "no outbox row where " + where);
            Thread.sleep(20);
        }
    }

    private long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres", "postgres",
                "postgres"); Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
