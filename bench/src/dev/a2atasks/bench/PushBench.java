package dev.a2atasks.bench;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;

import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.proto.v1.Part;
import dev.a2atasks.proto.v1.Role;
import dev.a2atasks.proto.v1.SendMessageConfiguration;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;

/**
 * i. Push delivery: tasks sent with a webhook registration (the demo agent: five events each),
 * every event delivered by the service's outbox worker to a webhook on loopback that answers 200
 * at once. Lag is from the event's write (task_events.created_at, the service's clock) to its
 * arrival at the webhook (this process's clock, the same machine).
 */
final class PushBench {

    private PushBench() {
    }

    static Table run(Clients clients, String bearer, boolean quick) throws Exception {
        return run(clients, bearer, quick, null, null);
    }

    /**
     * As {@link #run(Clients, String, boolean)}; with {@code profiledPid}, the many-task row is
     * recorded with JFR in that service process, its summary added to {@code profiles}.
     */
    static Table run(Clients clients, String bearer, boolean quick, Long profiledPid, List<Table> profiles) throws Exception {
        Table table = new Table("i. Push notifications: task events to a loopback webhook through the outbox (demo agent, 5 events a task)",
                "load", "deliveries", "events written/s", "deliveries/s", "lag p50 ms", "lag p99 ms");
        Map<String, Instant> arrivals = new ConcurrentHashMap<>();
        HttpServer webhook = webhook(arrivals);
        String url = "http://127.0.0.1:" + webhook.getAddress().getPort() + "/hook";
        try {
            int sequential = quick ? 3 : 20;
            // Warm-up (not reported): the delivery path's code compiled, its connections open. 400 tasks
            // (2,000 deliveries): after 40, the burst below still ran partly uncompiled code (2026-12-07,
            // alternating runs: 214-274 events written/s after 40, 349-364 after 400).
            row(new Table("warm-up", "load", "deliveries", "events written/s", "deliveries/s", "lag p50 ms", "lag p99 ms"), clients, bearer,
                    url, arrivals, "warm-up", quick ? 8 : 400, 8);
            row(table, clients, bearer, url, arrivals, "1 task at a time", sequential, 1);
            int many = quick ? 20 : 100;
            if (profiledPid == null) {
                row(table, clients, bearer, url, arrivals, many + " tasks, 8 senders", many, 8);
            } else {
                profiles.add(Profile.during(profiledPid, "push delivery, " + many + " tasks from 8 senders",
                        java.nio.file.Path.of("target/bench/push-" + many + ".jfr"), () -> {
                            row(table, clients, bearer, url, arrivals, many + " tasks, 8 senders", many, 8);
                            return null;
                        }));
            }
        } finally {
            webhook.stop(0);
        }
        table.note("Each task is sent over gRPC with returnImmediately and its taskPushNotificationConfig; the service writes each event"
                + " and its outbox row in one transaction and NOTIFYs; the worker claims each registration's due events together"
                + " (FOR NO KEY UPDATE SKIP LOCKED), POSTs them in order, deletes the delivered rows. events written/s: the events over the time from the first send to the last event's write"
                + " (the write path's pace, on the same two cores); deliveries/s: all deliveries over the time from the first"
                + " send to the last arrival; lag includes waiting behind earlier events of the same task."
                + " Every delivery id arrived exactly once (a duplicate would be printed).");
        return table;
    }

    /** A webhook on loopback that answers 200 at once and records each delivery id's arrival (a second arrival is printed). */
    private static HttpServer webhook(Map<String, Instant> arrivals) throws java.io.IOException {
        HttpServer webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.setExecutor(Executors.newFixedThreadPool(16));
        webhook.createContext("/", exchange -> {
            Instant at = Instant.now();
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            String id = exchange.getRequestHeaders().getFirst("X-A2A-Delivery-Id");
            if (arrivals.putIfAbsent(id, at) != null) {
                System.out.println("push bench: delivered twice: " + id);
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        webhook.start();
        return webhook;
    }

    static void row(Table table, Clients clients, String bearer, String url, Map<String, Instant> arrivals, String label, int tasks,
            int senders) throws Exception {
        arrivals.clear();
        List<String> ids = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        Instant start = Instant.now();
        List<Future<?>> sends = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int mine = tasks / senders + (s < tasks % senders ? 1 : 0);
            sends.add(pool.submit(() -> {
                try (Clients.Grpc grpc = clients.new Grpc(bearer)) {
                    for (int i = 0; i < mine; i++) {
                        ids.add(grpc.stub.withDeadlineAfter(30, TimeUnit.SECONDS).sendMessage(request(url)).getTask().getId());
                        if (senders == 1) {
                            awaitArrivals(arrivals, ids.size() * 5, Duration.ofSeconds(30)); // one task's events at a time
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> send : sends) {
            send.get();
        }
        pool.shutdown();
        int expected = tasks * 5;
        awaitArrivals(arrivals, expected, Duration.ofSeconds(120));
        Instant last = arrivals.values().stream().max(Instant::compareTo).orElseThrow();
        Map<String, Instant> written = eventTimes(clients, ids);
        long[] lags = new long[expected];
        int n = 0;
        for (var arrival : arrivals.entrySet()) {
            String[] key = arrival.getKey().split("/");
            Instant at = written.get(key[0] + "/" + key[2]);
            lags[n++] = Duration.between(at, arrival.getValue()).toNanos();
        }
        Stats lag = Stats.of(lags, n, 0);
        double seconds = Duration.between(start, last).toNanos() / 1e9;
        Instant lastWritten = written.values().stream().max(Instant::compareTo).orElseThrow();
        double writing = Duration.between(start, lastWritten).toNanos() / 1e9;
        table.row(label, n, written.size() / writing, n / seconds, lag.p50Ms(), lag.p99Ms());
    }

    private static void awaitArrivals(Map<String, Instant> arrivals, int count, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (arrivals.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("webhook got " + arrivals.size() + " of " + count + " deliveries in " + within);
            }
            Thread.sleep(2);
        }
    }

    /** When each event was written: task id + "/" + seq -> created_at. */
    private static Map<String, Instant> eventTimes(Clients clients, List<String> ids) throws Exception {
        Map<String, Instant> times = new HashMap<>();
        try (Connection c = clients.connect(); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT task_id, seq, created_at FROM task_events WHERE task_id IN ('"
                        + String.join("','", ids) + "')")) {
            while (rows.next()) {
                times.put(rows.getString(1) + "/" + rows.getLong(2), rows.getTimestamp(3).toInstant());
            }
        }
        return times;
    }

    /**
     * m. One tenant's webhooks cannot stall another's: tenant B's deliveries (one task at a time,
     * as in table i) with nothing else owed, then while tenant A owes 364 deliveries that cannot
     * be made — 300 to webhooks that accept the connection and never answer (each holds its
     * attempt for the delivery timeout, 10 s) and 64 to a port no socket has (rows put past the
     * URL grammar, as rows stored before it would be) — then with A's registrations deleted again.
     */
    static Table isolation(Clients clients, String bearerA, String bearerB, boolean quick) throws Exception {
        Table table = new Table("m. Push isolation: tenant B's delivery lag (1 task at a time, 5 events each) alone, and while tenant A "
                + "owes 300 deliveries to webhooks that never answer and 64 to an invalid port",
                "moment", "deliveries", "events written/s", "deliveries/s", "lag p50 ms", "lag p99 ms");
        Map<String, Instant> arrivals = new ConcurrentHashMap<>();
        HttpServer webhook = webhook(arrivals);
        String url = "http://127.0.0.1:" + webhook.getAddress().getPort() + "/hook";
        List<java.net.Socket> held = java.util.Collections.synchronizedList(new ArrayList<>());
        java.net.ServerSocket silent = new java.net.ServerSocket(0, 1024, java.net.InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> { // accepts every connection and never reads or answers
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept());
                } catch (java.io.IOException closed) {
                    return;
                }
            }
        }, "silent-webhooks");
        acceptor.setDaemon(true);
        acceptor.start();
        int tasks = quick ? 10 : 20;
        try {
            row(new Table("warm-up", "load", "deliveries", "events written/s", "deliveries/s", "lag p50 ms", "lag p99 ms"), clients,
                    bearerB, url, arrivals, "warm-up", 40, 8);
            row(table, clients, bearerB, url, arrivals, "B alone", tasks, 1);
            String stuck;
            try (Clients.Grpc grpc = clients.new Grpc(bearerA)) {
                stuck = grpc.stub.withDeadlineAfter(30, TimeUnit.SECONDS).sendMessage(SendMessageRequest.newBuilder()
                        .setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER)
                                .addParts(Part.newBuilder().setText("input please"))).build()).getTask().getId();
                try (Connection c = clients.connect(); Statement s = c.createStatement()) {
                    String scope = "SELECT tenant, owner, id FROM tasks WHERE id = '" + stuck + "'";
                    s.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) SELECT t.tenant, t.owner, t.id,"
                            + " 'silent-' || g, 'http://127.0.0.1:" + silent.getLocalPort() + "/h' || g, now() FROM (" + scope
                            + ") t, generate_series(1, 300) g");
                    s.execute("INSERT INTO push_configs (tenant, owner, task_id, id, url, created_at) SELECT t.tenant, t.owner, t.id,"
                            + " 'bad-port-' || g, 'http://127.0.0.1:99999/never', now() FROM (" + scope + ") t, generate_series(1, 64) g");
                }
                grpc.stub.withDeadlineAfter(30, TimeUnit.SECONDS).cancelTask(dev.a2atasks.proto.v1.CancelTaskRequest.newBuilder()
                        .setId(stuck).build()); // one event, owed to all 364 registrations
            }
            Thread.sleep(1_000); // A's share of the worker is taken and hanging
            int hanging = held.size();
            row(table, clients, bearerB, url, arrivals, "B while A owes 364 (" + hanging + " of A's held open at the start)", tasks, 1);
            try (Connection c = clients.connect(); Statement s = c.createStatement()) {
                s.execute("DELETE FROM push_configs WHERE task_id = '" + stuck + "'"); // and, by cascade, what is owed to them
            }
            Thread.sleep(11_000); // A's attempts in flight end (the 10 s timeout)
            row(table, clients, bearerB, url, arrivals, "B alone again", tasks, 1);
        } finally {
            silent.close();
            for (java.net.Socket socket : held) {
                socket.close();
            }
            webhook.stop(0);
        }
        table.note("Defaults: a2a.push.max-in-flight 64, max-in-flight-per-tenant 32, max-in-flight-per-url 16, timeout 10 s. The 'held open'"
                + " count is how many of A's connections the silent webhooks had accepted one second after A's deliveries fell due: A's"
                + " share. The 64 invalid-port rows fail at once, each a failed attempt retried with backoff. Lag as in table i.");
        return table;
    }

    private static SendMessageRequest request(String url) {
        return SendMessageRequest.newBuilder()
                .setMessage(Message.newBuilder().setMessageId(UUID.randomUUID().toString()).setRole(Role.ROLE_USER)
                        .addParts(Part.newBuilder().setText("push bench")))
                .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)
                        .setTaskPushNotificationConfig(TaskPushNotificationConfig.newBuilder().setUrl(url).setToken("bench")))
                .build();
    }
}
