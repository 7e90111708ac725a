package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.Tokens;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The client jar works alone: its class path is resolved from the dependencies it declares
 * ({@code src/test/client-consumer/pom.xml}) and nothing else (no Quarkus, no Jackson), and on it
 * the client's command walks a packaged server over gRPC and over HTTP+JSON, reports an HTTP error
 * with the server's message, and keeps a base URL's path as a prefix (the server under
 * {@code a2a.http.path-prefix=/a2a/v1}). Runs after {@code package}, in {@code verify}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientJarIT {

    private static final Path CLIENT_JAR = Path.of("target/a2a-tasks-0.1.0-SNAPSHOT-client.jar").toAbsolutePath();
    private static final String TENANT = "ClientJarIT";
    private static final int TASKS = 25;

    private EmbeddedPostgres database;
    private PackagedServer server;
    private String classPath;

    @BeforeAll
    void resolveTheClassPathAndStartAServer() throws Exception {
        assertTrue(Files.isRegularFile(CLIENT_JAR), "the client jar is built by package");
        Path out = Path.of("target/client-consumer/classpath.txt").toAbsolutePath();
        Files.createDirectories(out.getParent());
        String mvnw = Path.of("mvnw").toAbsolutePath().toString();
        Process resolve = new ProcessBuilder(mvnw, "-q", "-B", "-f", "src/test/client-consumer/pom.xml",
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                "-Dclient.jar=" + CLIENT_JAR, "-Dmdep.outputFile=" + out).inheritIO().start();
        assertTrue(resolve.waitFor(5, TimeUnit.MINUTES) && resolve.exitValue() == 0, "the declared dependencies resolve");
        classPath = Files.readString(out).strip();

        database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start();
        // Served under a path, as behind a gateway that routes /a2a/v1 to it.
        server = PackagedServer.start("client-jar-server", database, Map.of("A2A_HTTP_PATH_PREFIX", "/a2a/v1"));
        try (Connection db = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres",
                "postgres", "postgres");
                PreparedStatement insert = db.prepareStatement("INSERT INTO tasks (tenant, owner, id, state, status_ts)"
                        + " VALUES (?, 'alice', ?, 'TASK_STATE_WORKING', ?)")) {
            for (int i = 0; i < TASKS; i++) {
                insert.setString(1, TENANT);
                insert.setString(2, "task-" + i);
                insert.setTimestamp(3, java.sql.Timestamp.from(Instant.now().minusSeconds(100 - i)));
                insert.executeUpdate();
            }
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void theDeclaredClassPathHoldsNoServerLibrary() {
        List<String> jars = Stream.of(classPath.split(java.io.File.pathSeparator)).map(p -> Path.of(p).getFileName().toString())
                .toList();
        assertTrue(jars.contains(CLIENT_JAR.getFileName().toString()), jars.toString());
        assertEquals(List.of(), jars.stream().filter(j -> j.matches("(?i).*(quarkus|jackson|vertx|mutiny|smallrye|hibernate).*"))
                .toList());
    }

    @Test
    void walksOverGrpc() throws Exception {
        Result result = run(Tokens.validOutsideQuarkus(TENANT, "alice"), "--grpc", "127.0.0.1:" + server.port(), "--plaintext",
                "--page-size", "10");
        assertEquals(0, result.exit(), result.toString());
        assertTrue(result.out().startsWith("tasks=" + TASKS + " "), result.toString());
    }

    @Test
    void walksOverHttpWithThePathAsAPrefix() throws Exception {
        Result result = run(Tokens.validOutsideQuarkus(TENANT, "alice"), "--http", server.url("/a2a/v1"), "--page-size", "10");
        assertEquals(0, result.exit(), result.toString());
        assertTrue(result.out().startsWith("tasks=" + TASKS + " "), result.toString());
    }

    @Test
    void anHttpErrorIsReportedWithTheServersMessage() throws Exception {
        Result result = run(Tokens.validOutsideQuarkus(TENANT, "alice") + "x", "--http", server.url("/a2a/v1"));
        assertEquals(1, result.exit(), result.toString());
        assertTrue(result.err().contains("UNAUTHENTICATED") && result.err().contains("HTTP 401")
                && result.err().contains(server.url("/a2a/v1")), result.toString());
        assertFalse(result.err().contains("NoClassDefFoundError") || result.err().contains("\tat "), result.toString());
    }

    private record Result(int exit, String out, String err) {
    }

    private Result run(String token, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, "dev.a2atasks.client.ListAll"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("client-out", ".txt");
        Path err = Files.createTempFile("client-err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("A2A_TOKEN", token);
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the client finished");
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
