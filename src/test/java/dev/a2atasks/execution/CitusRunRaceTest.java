package dev.a2atasks.execution;

import dev.a2atasks.support.CitusProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * {@link RunRaceTest} (queued messages, cancel against completion, retried first messages, a run
 * whose task was taken over) on a store distributed by owner on Citus.
 */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusRunRaceTest extends RunRaceTest {
}
