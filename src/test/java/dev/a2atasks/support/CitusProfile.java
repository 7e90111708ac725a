package dev.a2atasks.support;

import java.util.List;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The service on a three-node Citus cluster ({@link CitusCluster}), its schema distributed by
 * owner ({@code a2a.database.distribution=citus}). Test classes that run an existing suite there
 * extend it and carry this profile; Quarkus runs every class of one profile on one start.
 */
public class CitusProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(CitusCluster.class));
    }
}
