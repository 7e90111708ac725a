package dev.a2atasks.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A Citus cluster on loopback for the tests of {@code a2a.database.distribution=citus}: a
 * coordinator and two workers, each a PostgreSQL 15 of Debian's with the Citus kit
 * ({@code ../shared/tools/citus}, which {@code .ci/run} installs), in a temporary directory, gone
 * when the tests end. The service is pointed at the coordinator and migrates it at start-up, which
 * distributes the schema. Servers run as the embedded PostgreSQL does, in a user namespace where
 * root is not uid 0 (PostgreSQL refuses to run as root).
 */
public class CitusCluster implements QuarkusTestResourceLifecycleManager {

    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final Path CITUS = Path.of("/usr/lib/postgresql/15/lib/citus.so");

    private final List<Node> nodes = new ArrayList<>();
    private Path root;

    private record Node(Path data, int port, Process process) {
    }

    @Override
    public Map<String, String> start() {
        if (!Files.isExecutable(BIN.resolve("postgres")) || !Files.exists(CITUS)) {
            throw new IllegalStateException("The Citus tests need Debian's postgresql-15 (15.20 or later) and the Citus kit:"
                    + " apt-get install postgresql-15 && sh ../shared/tools/citus/install.sh (.ci/run does both)");
        }
        try {
            root = Files.createTempDirectory("a2a-citus");
            for (int i = 0; i < 3; i++) {
                nodes.add(startNode(root.resolve("node" + i)));
            }
            Node coordinator = nodes.get(0);
            for (Node node : nodes) {
                sql(node.port(), "CREATE EXTENSION citus");
                sql(node.port(), "CREATE EXTENSION pg_stat_statements");
            }
            sql(coordinator.port(), "SELECT citus_set_coordinator_host('127.0.0.1', " + coordinator.port() + ")");
            for (Node worker : nodes.subList(1, nodes.size())) {
                sql(coordinator.port(), "SELECT citus_add_node('127.0.0.1', " + worker.port() + ")");
            }
            String hostPortDb = "//127.0.0.1:" + coordinator.port() + "/postgres";
            return Map.of(
                    "quarkus.datasource.reactive.url", "postgresql:" + hostPortDb,
                    "quarkus.datasource.jdbc.url", "jdbc:postgresql:" + hostPortDb,
                    "quarkus.datasource.username", "postgres",
                    "quarkus.datasource.password", "postgres",
                    "a2a.database.distribution", "citus");
        } catch (IOException | SQLException | InterruptedException e) {
            stop();
            throw new IllegalStateException("Could not start the Citus cluster: " + e.getMessage(), e);
        }
    }

    private static Node startNode(Path data) throws IOException, InterruptedException {
        int port = freePort();
        run(List.of("unshare", "-U", BIN.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "--no-sync"), data.resolveSibling(data.getFileName() + "-initdb.log"));
        Process process = new ProcessBuilder("unshare", "-U", BIN.resolve("postgres").toString(), "-D", data.toString(),
                "-p", Integer.toString(port), "-k", data.toString(), "-c", "listen_addresses=127.0.0.1",
                // pg_stat_statements and Citus' tracking of it: CitusRoutingTest reads which statements were routed.
                "-c", "shared_preload_libraries=citus,pg_stat_statements", "-c", "citus.stat_statements_track=all",
                "-c", "max_connections=200",
                // Durability off, as on the embedded PostgreSQL of the other tests and of the bench (table o compares the two).
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
                .redirectErrorStream(true).redirectOutput(data.resolveSibling(data.getFileName() + ".log").toFile()).start();
        Instant until = Instant.now().plusSeconds(30);
        while (true) {
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "")) {
                return new Node(data, port, process);
            } catch (SQLException notYet) {
                if (!process.isAlive() || Instant.now().isAfter(until)) {
                    throw new IOException("PostgreSQL on port " + port + " did not start; see " + data + ".log", notYet);
                }
                Thread.sleep(100);
            }
        }
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed; see " + log);
        }
    }

    private static void sql(int port, String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "");
                Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void stop() {
        for (Node node : nodes) {
            try { // SIGINT: PostgreSQL's fast shutdown
                new ProcessBuilder("kill", "-INT", Long.toString(node.process().pid())).start().waitFor();
                node.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                node.process().destroyForcibly();
            }
        }
        nodes.clear();
        if (root != null) {
            try (Stream<Path> files = Files.walk(root)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temporary directory: left for the system to clear
            }
        }
    }
}
