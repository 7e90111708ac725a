package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.Task;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import dev.a2atasks.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Webhooks that never answer hold only their tenant's share of the worker, and at most their
 * URL's share each: another tenant's webhook is delivered to while every one of them still hangs.
 * The worker here has 8 slots, 4 per tenant, 2 per URL; the silent tenant owes 12 deliveries.
 */
@QuarkusTest
@TestProfile(PushSharesTest.SmallWorker.class)
class PushSharesTest extends BindingTest {

    public static class SmallWorker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("a2a.push.allow-list", "127.0.0.1/32",
                    "a2a.push.timeout", "6s",
                    "a2a.push.max-in-flight", "8",
                    "a2a.push.max-in-flight-per-tenant", "4",
                    "a2a.push.max-in-flight-per-url", "2",
                    "a2a.push.poll-interval", "200ms");
        }
    }

    private static final String SILENT_TENANT = "PushSharesTest-silent";

    @Test
    void deadWebhooksOfOneTenantHoldOnlyItsShareAndAnotherTenantIsDeliveredMeanwhile() throws Exception {
        db.clearTenant(SILENT_TENANT);
        db.clearTenant(SILENT_TENANT + "-other");
        String bearer = Tokens.valid(SILENT_TENANT, "mallory");
        try (WebhookReceiver silent = new WebhookReceiver(Collections.nCopies(100, WebhookReceiver.SILENT), 10_000);
                WebhookReceiver healthy = new WebhookReceiver();
                GrpcChannels channels = new GrpcChannels(root)) {
            Task stuck = channels.stub(bearer).sendMessage(PushDeliveryTest.send("input please", null)).getTask();
            // Six registrations share one URL, six have one each: twelve deliveries owed at once by the cancel.
            db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) SELECT '" + SILENT_TENANT
                    + "', 'mallory', '" + stuck.getId() + "', 'same-' || g, '" + silent.url("/same") + "', now()"
                    + " FROM generate_series(1, 6) AS g");
            db.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) SELECT '" + SILENT_TENANT
                    + "', 'mallory', '" + stuck.getId() + "', 'own-' || g, '" + silent.url("/own-") + "' || g, now()"
                    + " FROM generate_series(1, 6) AS g");
            channels.stub(bearer).cancelTask(CancelTaskRequest.newBuilder().setId(stuck.getId()).build());
            silent.await(4, 10); // the tenant's whole share is hanging now

            channels.stub(Tokens.valid(SILENT_TENANT + "-other", "oscar")).sendMessage(PushDeliveryTest.send("healthy",
                    TaskPushNotificationConfig.newBuilder().setUrl(healthy.url("/ok")).build()));
            healthy.await(5, 5); // all five of its events, one after another

            List<WebhookReceiver.Received> hanging = silent.received();
            long failed = db.queryLong("SELECT count(*) FROM push_outbox WHERE tenant = '" + SILENT_TENANT + "' AND attempts > 0");
            assertEquals(0, failed, "the other tenant was served while the silent webhooks' first attempts still hung");
            assertEquals(4, hanging.size(), "the silent tenant holds its share (4) and no more: " + hanging);
            assertTrue(hanging.stream().filter(r -> r.path().equals("/same")).count() <= 2, "one URL holds at most 2: " + hanging);
        } finally {
            db.execute("DELETE FROM push_configs WHERE tenant = '" + SILENT_TENANT + "'");
        }
    }
}
