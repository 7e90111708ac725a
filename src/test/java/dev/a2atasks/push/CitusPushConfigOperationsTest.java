package dev.a2atasks.push;

import dev.a2atasks.support.CitusProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * {@link PushConfigOperationsTest} (webhook registration on the three bindings, its validation, and
 * the re-seal of secrets after a key rotation) on a store distributed by owner on Citus.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusPushConfigOperationsTest extends PushConfigOperationsTest {
}
