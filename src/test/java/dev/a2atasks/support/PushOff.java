package dev.a2atasks.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The service with push notifications switched off ({@code a2a.push.enabled=false}): no delivery
 * worker runs, so outbox rows a test writes stay the test's. Quarkus runs every class of one
 * profile on one start.
 */
public class PushOff implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("a2a.push.enabled", "false");
    }
}
