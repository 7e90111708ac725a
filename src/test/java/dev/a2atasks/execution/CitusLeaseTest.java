package dev.a2atasks.execution;

import dev.a2atasks.support.CitusProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * {@link LeaseTest} (a dead replica's runs failed by the sweep, live ones kept, leases given up) on
 * a store distributed by owner on Citus, where the sweep finds expired leases across the nodes and
 * locks each on its own.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusLeaseTest extends LeaseTest {
}
