package dev.a2atasks.execution;

import dev.a2atasks.support.CitusProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link WritePathParityTest} (every write operation on the three bindings) on a store distributed by owner on Citus. */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusWritePathParityTest extends WritePathParityTest {
}
