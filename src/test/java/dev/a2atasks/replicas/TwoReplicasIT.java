package dev.a2atasks.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.a2atasks.support.PackagedServer;
import dev.a2atasks.support.Tokens;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Two service processes (the packaged application, started as child processes) on one
 * PostgreSQL: a subscriber on one sees, once and in order, every event of an agent running on the
 * other, woken by LISTEN/NOTIFY rather than its (here one-minute) poll; and when the process running an agent is killed ({@code kill -9}), the other fails its
 * task once the lease expires, visible in ListTasks. Runs after {@code package}, in {@code verify}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration SWEEP = Duration.ofSeconds(1);
    private static final Duration POLL = Duration.ofSeconds(60);

    private EmbeddedPostgres database;
    private PackagedServer a;
    private PackagedServer b;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String bearer = Tokens.validOutsideQuarkus("TwoReplicasIT", "alice");


    @BeforeAll
    void startDatabaseAndTwoReplicas() throws Exception {
        database = EmbeddedPostgres.builder().setServerConfig("fsync", "off").setServerConfig("synchronous_commit", "off").start();
        a = start("a");
        b = start("b"); // after a has migrated the schema
    }

    @AfterAll
    void stop() throws Exception {
        for (PackagedServer replica : new PackagedServer[] { a, b }) {
            if (replica != null) {
                replica.close();
            }
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void aSubscriberOnOneReplicaGetsEveryEventOfAnAgentOnTheOtherOnceAndInOrder() throws Exception {
        JsonNode task = send(b, "abcdefghi", true).get("task");
        String id = task.get("id").asText();
        long t0 = System.nanoTime();
        List<JsonNode> events = subscribe(a, id);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        // The run takes about 1.5 s; a's stream re-reads on its own only every 60 s. Arriving within
        // 30 s means b's commits woke it through PostgreSQL (LISTEN/NOTIFY), event after event.
        assertTrue(millis < 30_000, "stream on a took " + millis + " ms");
        assertTrue(events.get(0).has("task"), events.toString());
        List<JsonNode> updates = events.subList(1, events.size());
        assertFalse(updates.isEmpty(), "the run on b was still going when a's subscriber arrived");
        assertEquals("TASK_STATE_COMPLETED", updates.get(updates.size() - 1).at("/statusUpdate/status/state").asText());

        // Exactly the stored events after the snapshot, in their order: none lost, none twice.
        List<JsonNode> stored = storedEvents(id);
        assertEquals(stored.subList(stored.size() - updates.size(), stored.size()), updates);
    }

    @Test
    void killingTheReplicaThatRunsAnAgentEndsTheTaskFailedWithinTheLease() throws Exception {
        PackagedServer victim = start("victim");
        String id = send(victim, "a long piece of work", true).at("/task/id").asText();
        awaitWorking(id);
        long killedAt = kill(victim);
        String state = awaitEnd(id, killedAt);
        long tookMillis = (System.nanoTime() - killedAt) / 1_000_000;
        assertEquals("TASK_STATE_FAILED", state);
        assertTrue(tookMillis <= LEASE.plus(SWEEP).toMillis() + 2_000, "failed " + tookMillis + " ms after the kill");
        JsonNode failed = get(a, "/tasks/" + id + "?historyLength=0");
        assertTrue(failed.at("/status/message/parts/0/text").asText().startsWith("The agent was interrupted"), failed.toString());
        JsonNode listed = get(b, "/tasks?pageSize=1");
        assertEquals(id, listed.at("/tasks/0/id").asText(), "first in ListTasks on the other replica too");
        System.out.printf("task failed %d ms after its replica was killed (lease %s, sweep %s)%n", tookMillis, LEASE, SWEEP);
    }

    @Test
    void stoppingTheReplicaThatRunsAnAgentFailsTheTaskAtOnceAndLogsNoError() throws Exception {
        PackagedServer stopped = start("stopped");
        try {
            String id = send(stopped, "a long piece of work", true).at("/task/id").asText();
            awaitWorking(id);
            stopped.process().destroy(); // SIGTERM: a graceful stop, as an orchestrator's
            assertTrue(stopped.process().waitFor(30, TimeUnit.SECONDS), "stopped");
            // Failed by the stopping replica itself, with its reason, not by a sweeper after the lease.
            JsonNode failed = get(a, "/tasks/" + id + "?historyLength=0");
            assertEquals("TASK_STATE_FAILED", failed.at("/status/state").asText(), failed.toString());
            assertEquals("The service stopped while the agent worked on this task", failed.at("/status/message/parts/0/text").asText());
            List<String> log = Files.readAllLines(stopped.log());
            String text = String.join("\n", log);
            assertEquals(List.of(), log.stream().filter(line -> line.contains(" ERROR ") || line.startsWith("\tat ")
                    || line.startsWith("Caused by")).toList(), text);
            assertTrue(text.contains("was stopped by the service's shutdown"), text);
        } finally {
            stopped.close();
        }
    }

    @Test
    void aMessageToATaskWhoseRunIsOnAKilledReplicaNeverStartsASecondRunAndTheTaskEnds() throws Exception {
        PackagedServer victim = start("victim-2");
        String working = send(victim, "a long piece of work", true).at("/task/id").asText();
        String waiting = send(victim, "input wanted", false).at("/task/id").asText();
        assertEquals("TASK_STATE_INPUT_REQUIRED", state(a, waiting));
        awaitWorking(working);
        // A follow-up reaches the other replica while the victim's run is going: queued, not run beside it.
        JsonNode followUp = post(a, "/message:send", "{\"message\":{\"messageId\":\"" + java.util.UUID.randomUUID()
                + "\",\"role\":\"ROLE_USER\",\"taskId\":\"" + working + "\",\"parts\":[{\"text\":\"and another thing\"}]},"
                + "\"configuration\":{\"returnImmediately\":true}}");
        assertEquals("TASK_STATE_WORKING", followUp.at("/task/status/state").asText());
        String end = awaitEnd(working, kill(victim));
        assertEquals("TASK_STATE_FAILED", end, "the dead run's task ends; the queued message stays unanswered in its history");
        JsonNode history = get(a, "/tasks/" + working + "?historyLength=10").at("/history");
        assertTrue(history.toString().contains("and another thing"), history.toString());
        // Every event came from the one run (input seq 0), then the sweep's FAILED (no run): never a second run.
        assertEquals(List.of("0"), storedInputSeqs(working));
        // The task that was waiting for its client still waits: nothing to fail, no lease held.
        Thread.sleep(LEASE.plus(SWEEP).toMillis() + 1_000);
        assertEquals("TASK_STATE_INPUT_REQUIRED", state(a, waiting));
    }

    @Test
    void twoReplicasRunningOneMirrorSyncItOneAtATimeWithoutDuplicates() throws Exception {
        // The source: 30 tasks of another caller on replica a (over its own HTTP+JSON binding).
        String source = Tokens.validOutsideQuarkus("MirrorSource", "remote");
        for (int i = 0; i < 30; i++) {
            HttpResponse<String> sent = http.send(HttpRequest.newBuilder(URI.create(a.url("/message:send")))
                    .header("Authorization", "Bearer " + source).header("A2A-Version", "1.0").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"message\":{\"messageId\":\"src-" + i
                            + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"input " + i + "\"}]}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sent.statusCode(), sent.body());
        }
        Map<String, String> mirror = Map.of(
                "a2a.mirror.shared.endpoint", a.url("/"),
                "a2a.mirror.shared.binding", "http",
                "a2a.mirror.shared.bearer-token", source,
                "a2a.mirror.shared.tenant", "MirrorCopies",
                "a2a.mirror.shared.owner", "copier",
                "a2a.mirror.shared.page-size", "7",
                "a2a.mirror.shared.interval", "200ms",
                "a2a.mirror.shared.reconcile-interval", "1s");
        try (PackagedServer c = PackagedServer.start("replica-c", database, mirror);
                PackagedServer d = PackagedServer.start("replica-d", database, mirror)) {
            Thread.sleep(6_000);
            List<long[]> syncs = new ArrayList<>();
            for (PackagedServer replica : List.of(c, d)) {
                String log = Files.readString(replica.log());
                assertFalse(log.contains("duplicate key") || log.contains("sync failed"), replica.name() + ":\n" + log);
                syncs.addAll(syncWindows(log));
            }
            assertTrue(syncs.size() >= 4, "both replicas kept syncing: " + syncs.size());
            syncs.sort(java.util.Comparator.comparingLong(w -> w[0]));
            for (int i = 1; i < syncs.size(); i++) {
                assertTrue(syncs.get(i)[0] >= syncs.get(i - 1)[1], "two syncs of one source overlapped: "
                        + java.util.Arrays.toString(syncs.get(i - 1)) + " and " + java.util.Arrays.toString(syncs.get(i)));
            }
        }
        assertEquals(30, countCopies());
    }

    private static final java.util.regex.Pattern SYNCED = java.util.regex.Pattern.compile(
            "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) .*Mirror shared (?:synced|reconciled).* in (\\d+) ms", java.util.regex.Pattern.MULTILINE);

    /** Each sync's [start, end] in epoch millis, from its log line (written at its end, with its duration). */
    private static List<long[]> syncWindows(String log) {
        List<long[]> windows = new ArrayList<>();
        java.util.regex.Matcher line = SYNCED.matcher(log);
        java.time.format.DateTimeFormatter format = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
        while (line.find()) {
            long end = java.time.LocalDateTime.parse(line.group(1), format).toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
            windows.add(new long[] { end - Long.parseLong(line.group(2)), end });
        }
        return windows;
    }

    private long countCopies() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres", "postgres",
                "postgres"); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT count(*) FROM tasks WHERE tenant = 'MirrorCopies' AND owner = 'copier'")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    private void awaitWorking(String id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!state(a, id).equals("TASK_STATE_WORKING")) {
            assertTrue(System.nanoTime() < deadline, "the agent on the victim started working");
            Thread.sleep(20);
        }
    }

    /** SIGKILL: no shutdown hook, no lease given up. Answers when it died. */
    private static long kill(PackagedServer victim) throws Exception {
        victim.process().destroyForcibly();
        victim.process().waitFor(10, TimeUnit.SECONDS);
        return System.nanoTime();
    }

    /** The task's state once it leaves WORKING, as replica a sees it, or WORKING still after 30 s. */
    private String awaitEnd(String id, long killedAt) throws Exception {
        String state;
        do {
            Thread.sleep(100);
            state = state(a, id);
        } while (state.equals("TASK_STATE_WORKING") && System.nanoTime() - killedAt < Duration.ofSeconds(30).toNanos());
        return state;
    }

    private JsonNode post(PackagedServer replica, String path, String body) throws Exception {
        HttpResponse<String> response = http.send(request(replica, path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    /** The distinct input seqs named by a task's stored events (runs that wrote them), in order. */
    private List<String> storedInputSeqs(String id) throws Exception {
        List<String> seqs = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres", "postgres",
                "postgres"); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT DISTINCT input_seq FROM task_events WHERE task_id = '" + id
                        + "' AND input_seq IS NOT NULL ORDER BY input_seq")) {
            while (rows.next()) {
                seqs.add(rows.getString(1));
            }
        }
        return seqs;
    }

    private PackagedServer start(String name) throws Exception {
        return PackagedServer.start("replica-" + name, database, Map.of(
                "A2A_DEMO_AGENT_STEP_DELAY", "300ms",
                "A2A_AGENT_LEASE", LEASE.toSeconds() + "s",
                "A2A_AGENT_LEASE_SWEEP_INTERVAL", SWEEP.toSeconds() + "s",
                // Streams re-read on their own only every minute: whatever reaches a subscriber sooner was woken by a NOTIFY.
                "A2A_STREAM_POLL_INTERVAL", POLL.toSeconds() + "s"));
    }

    private HttpRequest.Builder request(PackagedServer replica, String path) {
        return HttpRequest.newBuilder(URI.create(replica.url(path))).header("Authorization", "Bearer " + bearer)
                .header("A2A-Version", "1.0").timeout(Duration.ofSeconds(30));
    }

    private JsonNode send(PackagedServer replica, String text, boolean returnImmediately) throws Exception {
        String body = "{\"message\":{\"messageId\":\"" + java.util.UUID.randomUUID() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\""
                + text + "\"}]},\"configuration\":{\"returnImmediately\":" + returnImmediately + "}}";
        HttpResponse<String> response = http.send(request(replica, "/message:send").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private JsonNode get(PackagedServer replica, String path) throws Exception {
        HttpResponse<String> response = http.send(request(replica, path).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private String state(PackagedServer replica, String id) throws Exception {
        return get(replica, "/tasks/" + id + "?historyLength=0").at("/status/state").asText();
    }

    private List<JsonNode> subscribe(PackagedServer replica, String id) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> response = http.send(request(replica, "/tasks/" + id + ":subscribe")
                .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        List<JsonNode> events = new ArrayList<>();
        for (String line : (Iterable<String>) response.body()::iterator) {
            if (line.startsWith("data: ")) {
                events.add(JSON.readTree(line.substring(6)));
            }
        }
        return events;
    }

    private List<JsonNode> storedEvents(String id) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + database.getPort() + "/postgres", "postgres",
                "postgres"); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT payload::text FROM task_events WHERE task_id = '" + id + "' ORDER BY seq")) {
            while (rows.next()) {
                events.add(JSON.readTree(rows.getString(1)));
            }
        }
        return events;
    }
}
