package dev.a2atasks.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** A mirror configured in a2a.mirror.<name>.* runs by itself on its interval and fills the local scope. */
@QuarkusTest
@TestProfile(MirrorJobTest.ConfiguredMirror.class)
class MirrorJobTest extends BindingTest {

    static final int PORT = 18391;
    static final String SOURCE_TENANT = "MirrorJobTest-source";
    static final String LOCAL_TENANT = "MirrorJobTest-local";

    public static class ConfiguredMirror implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quarkus.http.test-port", Integer.toString(PORT),
                    "a2a.mirror.job-test.endpoint", "127.0.0.1:" + PORT,
                    "a2a.mirror.job-test.plaintext", "true",
                    "a2a.mirror.job-test.bearer-token", Tokens.validOutsideQuarkus(SOURCE_TENANT, "remote"),
                    "a2a.mirror.job-test.tenant", LOCAL_TENANT,
                    "a2a.mirror.job-test.owner", "copies",
                    "a2a.mirror.job-test.interval", "500ms");
        }
    }

    @Test
    void configuredMirrorSyncsOnItsOwn() {
        db.clearTenant(LOCAL_TENANT);
        db.clearTenant(SOURCE_TENANT);
        db.execute("DELETE FROM mirror_marks WHERE mirror = 'job-test'");
        for (int i = 0; i < 12; i++) {
            db.insertTask(SOURCE_TENANT, "remote", "remote-" + i, "", "TASK_STATE_WORKING", Instant.now().minusSeconds(100 - i));
        }
        String local = Tokens.valid(LOCAL_TENANT, "copies");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        int seen = 0;
        while (System.nanoTime() < deadline && (seen = api("GRPC").list(local, Map.of()).getTotalSize()) < 12) {
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // the job runs on its own schedule
        }
        assertEquals(12, seen, "the mirror job copied the source's tasks");
        assertTrue(db.queryLong("SELECT count(*) FROM mirror_marks WHERE mirror = 'job-test'") == 1, "its mark was persisted");
    }
}
