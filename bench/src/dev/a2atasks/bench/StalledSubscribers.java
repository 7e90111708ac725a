package dev.a2atasks.bench;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Table l: subscribers that never read, on a task whose snapshot is 2 MB (a WORKING task with a
 * 2 MB artifact, written straight into the database; no run, so it stays WORKING). Each opens
 * SubscribeToTask over a socket with a 4 KB receive buffer and reads nothing. Heap after a full GC
 * and RSS of the service before, once all are subscribed, and after the stall bound
 * ({@code a2a.http.limits.max-stream-stall}, 30 s by default) has passed; then how many of the
 * connections the service had not closed.
 */
final class StalledSubscribers {

    private StalledSubscribers() {
    }

    static Table run(Path java, Map<String, String> env, Path log, String token, String jdbcUrl, int subscribers) throws Exception {
        Map<String, String> configured = new HashMap<>(env);
        configured.put("A2A_RATE_LIMIT_MAX_OPEN_STREAMS", Integer.toString(subscribers)); // one caller: its open-stream bound raised to N
        Table table = new Table("l. " + subscribers + " subscribers that never read, on one WORKING task with a 2 MB snapshot "
                + "(heap used after a full GC, RSS)", "moment", "heap MiB after GC", "RSS MiB", "connections open");
        try (Service service = Service.start(java, List.of(), configured, log)) {
            try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
                s.execute("DELETE FROM tasks WHERE tenant = 'bench' AND owner = 'stalled'");
                s.execute("WITH t AS (INSERT INTO tasks (tenant, owner, id, context_id, state, status_ts) "
                        + "VALUES ('bench', 'stalled', 'stalled-2mb', 'ctx', 'TASK_STATE_WORKING', now()) RETURNING pk) "
                        + "INSERT INTO artifacts (task_pk, artifact_id, ord, name, parts) SELECT pk, 'big', 0, 'big', "
                        + "jsonb_build_array(jsonb_build_object('text', repeat('x', 2 * 1024 * 1024))) FROM t");
            }
            table.row("before", Table.format(IdleSubscribers.heapAfterGc(service.process.pid())), Table.format(service.rssMiB()), 0);
            String request = "GET /tasks/stalled-2mb:subscribe HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                    + "\r\nA2A-Version: 1.0\r\nAccept: text/event-stream\r\n\r\n";
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < subscribers; i++) {
                    Socket socket = new Socket();
                    socket.setReceiveBufferSize(4096);
                    socket.connect(new InetSocketAddress("127.0.0.1", service.port));
                    socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                    sockets.add(socket);
                }
                Thread.sleep(5_000);
                table.row("all subscribed, 5 s later", Table.format(IdleSubscribers.heapAfterGc(service.process.pid())),
                        Table.format(service.rssMiB()), subscribers);
                // Past the 30 s stall bound and the watch's granularity (a quarter of it): a stream
                // is seen stalled at the first look after its write queue filled, then cut off at
                // the first look 30 s after that.
                Thread.sleep(50_000);
                double heap = IdleSubscribers.heapAfterGc(service.process.pid());
                double rss = service.rssMiB();
                int open = 0;
                int sample = sockets.size();
                for (Socket socket : sockets) {
                    if (stillOpen(socket)) {
                        open++;
                    }
                }
                table.row("55 s later (stall bound 30 s)", Table.format(heap), Table.format(rss), open + " of " + sample + " checked");
                System.out.printf("stalled subscribers: %d, still open after the stall bound: %d, heap %.1f MiB%n", subscribers, open, heap);
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        }
        table.note("One caller holds all of them: its open-stream bound (a2a.rate-limit.max-open-streams, 100 by default) is raised to "
                + subscribers + " for this table, so that the stall bound is what is measured. 'connections open': a connection the "
                + "service had not closed (reading it then would block).");
        return table;
    }

    /** Whether the service still holds this connection open: reading it to its end does not reach an end (or a reset) in 0.5 s. */
    private static boolean stillOpen(Socket socket) throws Exception {
        socket.setSoTimeout(500);
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1 << 16];
        try {
            while (in.read(buffer) >= 0) {
                // drain what the kernel held; a closed connection ends (or resets) after it
            }
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        } catch (SocketException reset) {
            return false;
        }
    }
}
