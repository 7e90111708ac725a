package dev.a2atasks.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The service as a deployment that lets one browser app call it: one origin on the CORS allow-list
 * (a loopback port the test then serves a page from), and a slow demo agent to watch and cancel.
 */
public class BrowserProfile implements QuarkusTestProfile {

    /** The allowed origin's port: read back by the tests from {@code quarkus.http.cors.origins}. */
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.cors.origins", "http://localhost:" + freePort(),
                "a2a.demo-agent.slow-step-delay", "1500ms");
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
