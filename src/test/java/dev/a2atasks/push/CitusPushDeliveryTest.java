package dev.a2atasks.push;

import java.util.List;

import dev.a2atasks.support.CitusCluster;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * {@link PushDeliveryTest} (order, retries, redirects, deletion, dead rows, rows that cannot be
 * delivered) on a store distributed by owner on Citus, where the outbox is claimed one owner at a time.
 */
@QuarkusTest
@TestProfile(CitusPushDeliveryTest.CitusLoopbackWebhooks.class)
class CitusPushDeliveryTest extends PushDeliveryTest {

    public static class CitusLoopbackWebhooks extends PushDeliveryTest.LoopbackWebhooks {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(CitusCluster.class));
        }
    }
}
