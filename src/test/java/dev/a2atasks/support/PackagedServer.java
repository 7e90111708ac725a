package dev.a2atasks.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The packaged application ({@code target/quarkus-app}), or the native executable built from it,
 * started as a child process on a free loopback port, against a given PostgreSQL, with the test
 * keys: what the ITs run real second processes with. {@code settings} adds or overrides configuration: a key with a dot is passed as a
 * system property ({@code a2a.mirror.x.endpoint}), any other as an environment variable; "{port}"
 * in a value is the server's own port.
 */
public record PackagedServer(String name, int port, Process process, Path log) implements AutoCloseable {

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** Returns once the server has said it listens (Quarkus logs "Listening on" when every route is in place). */
    public static PackagedServer start(String name, EmbeddedPostgres database, Map<String, String> settings) throws Exception {
        return awaitListening(launch(name, database, settings, null));
    }

    /** The same, with the native executable at {@code executable} instead of the JVM application. */
    public static PackagedServer startNative(Path executable, String name, EmbeddedPostgres database, Map<String, String> settings)
            throws Exception {
        return awaitListening(launch(name, database, settings, executable));
    }

    private static PackagedServer awaitListening(PackagedServer server) throws Exception {
        String name = server.name;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!Files.readString(server.log).contains("Listening on:")) {
            assertTrue(server.process.isAlive(), name + " exited during start-up:\n" + Files.readString(server.log));
            if (System.nanoTime() > deadline) {
                server.process.destroyForcibly();
                assertTrue(false, name + " did not start:\n" + Files.readString(server.log));
            }
            Thread.sleep(50);
        }
        return server;
    }

    /** What a run that is meant to end by itself (a migration run, a refused start) left: its exit code and its log. */
    public record Exit(int code, String log) {
    }

    /** Runs the packaged application until it exits by itself, at most 90 s. */
    public static Exit runToExit(String name, EmbeddedPostgres database, Map<String, String> settings) throws Exception {
        PackagedServer server = launch(name, database, settings, null);
        try {
            assertTrue(server.process.waitFor(90, TimeUnit.SECONDS), name + " did not exit:\n" + Files.readString(server.log));
            return new Exit(server.process.exitValue(), Files.readString(server.log));
        } finally {
            server.close();
        }
    }

    /** Starts the JVM application, or the native executable when {@code executable} is not null. */
    private static PackagedServer launch(String name, EmbeddedPostgres database, Map<String, String> settings, Path executable)
            throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = Files.createTempFile("a2a-" + name + "-", ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(executable == null ? java : executable.toAbsolutePath().toString(),
                "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1"));
        Map<String, String> env = new HashMap<>();
        for (var setting : settings.entrySet()) {
            String value = setting.getValue().replace("{port}", Integer.toString(port));
            if (setting.getKey().contains(".")) {
                command.add("-D" + setting.getKey() + "=" + value);
            } else {
                env.put(setting.getKey(), value);
            }
        }
        if (executable == null) {
            command.addAll(List.of("-jar", Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath().toString()));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> defaults = new HashMap<>();
        defaults.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:" + database.getPort() + "/postgres");
        defaults.put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        defaults.put("QUARKUS_DATASOURCE_PASSWORD", "postgres");
        defaults.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", Path.of("src/test/resources/keys/publicKey.pem").toAbsolutePath().toString());
        defaults.put("MP_JWT_VERIFY_ISSUER", Tokens.ISSUER);
        defaults.put("A2A_AUTH_TENANT_CLAIM", "tenant");
        defaults.put("A2A_PAGE_TOKEN_KEYS_IT", Base64.getEncoder().encodeToString(new byte[32]));
        defaults.put("A2A_PAGE_TOKEN_CURRENT_KEY_ID", "it");
        defaults.put("A2A_INSTANCE_ID", name);
        defaults.putAll(env);
        builder.environment().putAll(defaults);
        return new PackagedServer(name, port, builder.start(), log);
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
