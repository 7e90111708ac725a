package dev.a2atasks.binding;

import dev.a2atasks.support.CitusProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link ParityTest} (ListTasks/GetTask on the three bindings) on a store distributed by owner on Citus. */
@QuarkusTest
@TestProfile(CitusProfile.class)
class CitusParityTest extends ParityTest {
}
