package dev.a2atasks.push;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.a2atasks.proto.v1.AuthenticationInfo;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.proto.v1.TaskState;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Prometheus;
import dev.a2atasks.support.PushApi;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Delivery end to end: a real webhook on loopback (allowed by this profile's allow-list, as a
 * deployment would allow its own network), the real outbox and worker. Every event once, in
 * order, with the configured authentication; retries with growing delays; a later event waiting
 * for an earlier one; deletion stopping what is owed; a delivery given up as DEAD.
 */
@QuarkusTest
@TestProfile(PushDeliveryTest.LoopbackWebhooks.class)
class PushDeliveryTest extends BindingTest {

    public static class LoopbackWebhooks implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // No lease sweeps in this application: the database is shared with the test classes before it,
            // whose runs cut short by their application's stop are failed by the first sweep after their
            // lease (30 s). A task of theirs with a registration then owes a delivery to a webhook long
            // closed, and its retries would be counted in this class's windows (CI saw 6 retries for 4).
            return Map.of("a2a.push.allow-list", "127.0.0.1/32",
                    "a2a.push.timeout", "1s",
                    "a2a.push.retry.initial-delay", "300ms",
                    "a2a.push.retry.max-attempts", "5",
                    "a2a.push.poll-interval", "200ms",
                    "a2a.agent.lease-sweep-interval", "1h");
        }
    }

    private static final String TENANT = "PushDeliveryTest";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aTaskThatStreamsThreeChunksAndCompletesReachesTheWebhookOnceInOrderWithItsAuthentication() throws Exception {
        String credentials = "cred-" + UUID.randomUUID();
        String token = "tok-" + UUID.randomUUID();
        try (WebhookReceiver webhook = new WebhookReceiver()) {
            SendMessageRequest send = send("abcdefghi", TaskPushNotificationConfig.newBuilder().setUrl(webhook.url("/hooks/a2a?team=7"))
                    .setToken(token).setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer").setCredentials(credentials)).build());
            String body = given().contentType("application/json").header("A2A-Version", "1.0")
                    .header("Authorization", "Bearer " + Tokens.valid(TENANT, "alice")).body(PushApi.json(send))
                    .post("/message:send").then().statusCode(200).extract().asString();
            String taskId = JSON.readTree(body).get("task").get("id").asText();

            List<WebhookReceiver.Received> got = webhook.await(5, 20);
            Thread.sleep(1_000); // anything owed twice would arrive by now
            got = webhook.received();
            assertEquals(5, got.size(), "every event exactly once: " + got);
            List<String> kinds = new ArrayList<>();
            for (WebhookReceiver.Received r : got) {
                assertEquals("/hooks/a2a?team=7", r.path());
                assertEquals("Bearer " + credentials, r.header("Authorization"));
                assertEquals(token, r.header("X-A2A-Notification-Token"));
                assertEquals("application/a2a+json", r.header("Content-Type"));
                JsonNode event = JSON.readTree(r.body());
                JsonNode update = event.has("statusUpdate") ? event.get("statusUpdate") : event.get("artifactUpdate");
                assertEquals(taskId, update.get("taskId").asText());
                kinds.add(event.has("statusUpdate") ? update.get("status").get("state").asText()
                        : "chunk:" + update.get("artifact").get("parts").get(0).get("text").asText());
            }
            assertEquals(List.of("TASK_STATE_WORKING", "chunk:abc", "chunk:def", "chunk:ghi", "TASK_STATE_COMPLETED"), kinds);
            Set<String> ids = new LinkedHashSet<>();
            got.forEach(r -> ids.add(r.header("X-A2A-Delivery-Id")));
            assertEquals(5, ids.size(), "each delivery has its own id: " + ids);

            assertEquals(0, db.queryLong("SELECT count(*) FROM push_outbox WHERE tenant = '" + TENANT + "' AND task_id = '" + taskId + "'"),
                    "delivered rows are gone");
            // At rest: a dump of every table (each row as text; bytea as hex, so secrets stored as
            // bytes in clear would show as their hex) holds neither secret.
            StringBuilder dump = new StringBuilder();
            for (String table : db.queryText("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                    + " AND table_type = 'BASE TABLE'").split("\n")) {
                if (!table.isBlank()) {
                    dump.append(db.queryText("SELECT t::text FROM \"" + table.trim() + "\" t"));
                }
            }
            for (String secret : List.of(credentials, token)) {
                assertFalse(dump.toString().contains(secret), "stored in clear");
                assertFalse(dump.toString().contains(HexFormat.of().formatHex(secret.getBytes(StandardCharsets.UTF_8))), "stored as bytes in clear");
            }
            assertTrue(dump.toString().contains(webhook.url("/hooks/a2a?team=7")), "the dump holds the registration (its URL is not a secret)");
        }
    }

    @Test
    void refusedThreeTimesThenDeliveredOnTheFourthWithGrowingDelaysWhileLaterEventsWait() throws Exception {
        try (WebhookReceiver webhook = new WebhookReceiver(List.of(503, WebhookReceiver.SILENT, WebhookReceiver.SILENT), 1_500)) {
            try (GrpcChannels channels = new GrpcChannels(root)) {
                channels.stub(Tokens.valid(TENANT, "bob")).sendMessage(send("hello, world",
                        TaskPushNotificationConfig.newBuilder().setUrl(webhook.url("/retry")).build()));
            }
            List<WebhookReceiver.Received> got = webhook.await(8, 30);
            Thread.sleep(1_000);
            got = webhook.received();
            assertEquals(8, got.size(), "four attempts of the first event, then the four others once: " + got);
            String first = got.get(0).header("X-A2A-Delivery-Id");
            for (int i = 0; i < 4; i++) {
                assertEquals(first, got.get(i).header("X-A2A-Delivery-Id"), "attempt " + (i + 1) + " is the first event's");
            }
            long gap1 = got.get(1).atNanos() - got.get(0).atNanos();
            long gap2 = got.get(2).atNanos() - got.get(1).atNanos();
            long gap3 = got.get(3).atNanos() - got.get(2).atNanos();
            assertTrue(gap1 >= 250_000_000L, "first retry after the initial delay: " + gap1 / 1_000_000 + " ms");
            assertTrue(gap1 < gap2 && gap2 < gap3, "delays grow: " + gap1 / 1_000_000 + ", " + gap2 / 1_000_000 + ", " + gap3 / 1_000_000 + " ms");
            List<Long> seqs = new ArrayList<>();
            for (int i = 3; i < got.size(); i++) {
                String id = got.get(i).header("X-A2A-Delivery-Id");
                seqs.add(Long.parseLong(id.substring(id.lastIndexOf('/') + 1)));
            }
            List<Long> sorted = new ArrayList<>(seqs);
            sorted.sort(null);
            assertEquals(sorted, seqs, "the later events waited and then came in order");
            assertEquals(5, new LinkedHashSet<>(seqs).size());
        }
    }

    @Test
    void aRedirectIsAFailedAttemptNotFollowed() throws Exception {
        try (WebhookReceiver webhook = new WebhookReceiver(List.of(302), 0)) {
            Task task;
            try (GrpcChannels channels = new GrpcChannels(root)) {
                task = channels.stub(Tokens.valid(TENANT, "erin")).sendMessage(send("go",
                        TaskPushNotificationConfig.newBuilder().setUrl(webhook.url("/moved")).build())).getTask();
            }
            List<WebhookReceiver.Received> got = webhook.await(6, 20);
            Thread.sleep(500);
            got = webhook.received();
            assertEquals(6, got.size(), "the redirected attempt, then the five events: " + got);
            assertTrue(got.stream().allMatch(r -> r.path().equals("/moved")), "never the Location: " + got);
            assertEquals(got.get(0).header("X-A2A-Delivery-Id"), got.get(1).header("X-A2A-Delivery-Id"), "the 302 was retried");
            assertEquals(0, db.queryLong("SELECT count(*) FROM push_outbox WHERE task_id = '" + task.getId() + "'"));
        }
    }

    @Test
    void deletingAConfigStopsWhatIsStillOwedToIt() throws Exception {
        String bearer = Tokens.valid(TENANT, "carol");
        PushApi push = new PushApi(root);
        try (WebhookReceiver webhook = new WebhookReceiver()) {
            webhook.thereafter(503);
            Task task;
            try (GrpcChannels channels = new GrpcChannels(root)) {
                task = channels.stub(bearer).sendMessage(send("stop me",
                        TaskPushNotificationConfig.newBuilder().setId("doomed").setUrl(webhook.url("/gone")).build())).getTask();
            }
            webhook.await(1, 10);
            assertTrue(db.queryLong("SELECT count(*) FROM push_outbox WHERE task_id = '" + task.getId() + "'") >= 4);

            push.delete("HTTP+JSON", bearer, task.getId(), "doomed").ok();
            assertEquals(0, db.queryLong("SELECT count(*) FROM push_outbox WHERE task_id = '" + task.getId() + "'"));
            int afterDelete = webhook.received().size();
            Thread.sleep(2_000); // several retry periods
            assertTrue(webhook.received().size() <= afterDelete + 1, "at most the attempt already under way: " + webhook.received());
        }
    }

    @Test
    void aDeliveryOutOfAttemptsIsKeptAsDeadCountedAndNoLongerHoldsTheTaskBack() throws Exception {
        String bearer = Tokens.valid(TENANT, "dave");
        PushApi push = new PushApi(root);
        Prometheus.Delta delta;
        try (WebhookReceiver webhook = new WebhookReceiver()) {
            webhook.thereafter(500);
            Task task;
            try (GrpcChannels channels = new GrpcChannels(root)) {
                task = channels.stub(bearer).sendMessage(send("input please", null)).getTask();
                assertEquals(TaskState.TASK_STATE_INPUT_REQUIRED, task.getStatus().getState());
                push.create("GRPC", bearer, TaskPushNotificationConfig.newBuilder().setTaskId(task.getId()).setId("hook")
                        .setUrl(webhook.url("/dead")).build()).ok();
                // The counters are the application's, shared with every test class before this one: their deliveries
                // still owed would be counted in this window too (a retry, a death), so they run out first.
                long quiet = System.currentTimeMillis() + 20_000;
                while (db.queryLong("SELECT count(*) FROM push_outbox WHERE state = 'PENDING'") > 0 && System.currentTimeMillis() < quiet) {
                    Thread.sleep(100);
                }
                assertEquals(0, db.queryLong("SELECT count(*) FROM push_outbox WHERE state = 'PENDING'"), "other deliveries still owed");
                var before = Prometheus.scrape();
                channels.stub(bearer).cancelTask(CancelTaskRequest.newBuilder().setId(task.getId()).build());
                webhook.await(5, 30);
                long deadline = System.currentTimeMillis() + 5_000;
                while (db.queryLong("SELECT count(*) FROM push_outbox WHERE task_id = '" + task.getId() + "' AND state = 'DEAD'") == 0
                        && System.currentTimeMillis() < deadline) {
                    Thread.sleep(50);
                }
                delta = new Prometheus.Delta(before, Prometheus.scrape());
            }
            assertEquals("DEAD|5|HTTP 500", db.queryText("SELECT state || '|' || attempts || '|' || last_error FROM push_outbox WHERE task_id = '"
                    + task.getId() + "'").trim());
            Thread.sleep(1_000);
            assertEquals(5, webhook.received().size(), "no attempt after the last: " + webhook.received());
            delta.is(1, "a2a_push_deliveries_total", "outcome", "dead");
            delta.is(4, "a2a_push_deliveries_total", "outcome", "retry");
            assertNotNull(task);
        }
    }

    @Test
    void rowsNoDeliveryCanBeMadeOfFailOnTheirOwnAndLeaveEveryoneElsesDeliveryAlone() throws Exception {
        String bearer = Tokens.valid(TENANT, "mallory");
        Task stuck;
        try (GrpcChannels channels = new GrpcChannels(root)) {
            stuck = channels.stub(bearer).sendMessage(send("input please", null)).getTask();
            // More rows than the worker has slots (64), with a port no socket has, put past the URL grammar
            // (which now refuses it) as a row stored before it would be.
            db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) SELECT '" + TENANT + "', 'mallory', '"
                    + stuck.getId() + "', 'bad-' || g, 'http://127.0.0.1:99999/never', now() FROM generate_series(1, 70) AS g");
            channels.stub(bearer).cancelTask(CancelTaskRequest.newBuilder().setId(stuck.getId()).build());
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (db.queryLong("SELECT count(*) FROM push_outbox WHERE task_id = '" + stuck.getId() + "' AND attempts > 0") < 70
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        String errors = db.queryText("SELECT DISTINCT last_error FROM push_outbox WHERE task_id = '" + stuck.getId() + "'");
        assertTrue(errors.contains("request could not be made") && errors.contains("port"), errors);

        // Meanwhile another caller's healthy webhook gets its five events at once, not after the bad rows.
        try (WebhookReceiver webhook = new WebhookReceiver(); GrpcChannels channels = new GrpcChannels(root)) {
            long sent = System.nanoTime();
            channels.stub(Tokens.valid(TENANT + "-other", "oscar")).sendMessage(send("healthy",
                    TaskPushNotificationConfig.newBuilder().setUrl(webhook.url("/ok")).build()));
            webhook.await(5, 10);
            assertTrue(System.nanoTime() - sent < java.time.Duration.ofSeconds(5).toNanos());
        } finally {
            db.execute("DELETE FROM push_configs WHERE task_id = '" + stuck.getId() + "'"); // the other tests count deliveries
        }
    }

    static SendMessageRequest send(String text, TaskPushNotificationConfig push) {
        SendMessageConfiguration.Builder configuration = SendMessageConfiguration.newBuilder();
        if (push != null) {
            configuration.setTaskPushNotificationConfig(push);
        }
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString())
                .setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText(text))).setConfiguration(configuration).build();
    }
}
