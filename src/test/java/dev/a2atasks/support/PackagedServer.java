package dev.a2atasks.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The packaged application ({@code target/quarkus-app}) started as a child process on a free
 * loopback port, against a given PostgreSQL, with the test keys: what the ITs run real second
 * processes with. {@code env} adds or overrides settings (environment variable form).
 */
public record PackagedServer(String name, int port, Process process, Path log) implements AutoCloseable {

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** Returns once the server has said it listens (Quarkus logs "Listening on" when every route is in place). */
    public static PackagedServer start(String name, EmbeddedPostgres database, Map<String, String> env) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = Files.createTempFile("a2a-" + name + "-", ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1",
                "-jar", Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> settings = new HashMap<>();
        settings.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:" + database.getPort() + "/postgres");
        settings.put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        settings.put("QUARKUS_DATASOURCE_PASSWORD", "postgres");
        settings.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", Path.of("src/test/resources/keys/publicKey.pem").toAbsolutePath().toString());
        settings.put("MP_JWT_VERIFY_ISSUER", Tokens.ISSUER);
        settings.put("A2A_AUTH_TENANT_CLAIM", "tenant");
        settings.put("A2A_PAGE_TOKEN_KEYS_IT", Base64.getEncoder().encodeToString(new byte[32]));
        settings.put("A2A_PAGE_TOKEN_CURRENT_KEY_ID", "it");
        settings.put("A2A_INSTANCE_ID", name);
        settings.putAll(env);
        builder.environment().putAll(settings);
        Process process = builder.start();
        PackagedServer server = new PackagedServer(name, port, process, log);
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!Files.readString(log).contains("Listening on:")) {
            assertTrue(process.isAlive(), name + " exited during start-up:\n" + Files.readString(log));
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                assertTrue(false, name + " did not start:\n" + Files.readString(log));
            }
            Thread.sleep(50);
        }
        return server;
    }

    /** SIGTERM, then SIGKILL if it has not ended within 20 s. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            process.waitFor(20, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }
}
