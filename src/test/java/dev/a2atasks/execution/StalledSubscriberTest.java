package dev.a2atasks.execution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A subscriber that never reads holds its buffers for a bounded time: once what was written to
 * it has sat unread for {@code a2a.http.limits.max-stream-stall}, its connection is closed. A
 * subscriber that reads is not affected. The task's snapshot is 2 MB: left to itself, Linux
 * grows a loopback connection's send buffer to hold all of it, and the stall would never show
 * in the service's write queue; the stream's send-buffer cap
 * ({@code a2a.http.limits.stream-send-buffer-bytes}) is what makes it show.
 */
@QuarkusTest
@TestProfile(StalledSubscriberTest.ShortStall.class)
class StalledSubscriberTest extends BindingTest {

    public static class ShortStall implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("a2a.http.limits.max-stream-stall", "1s");
        }
    }

    @Test
    void aSubscriberThatNeverReadsIsCutOffAndOneThatReadsIsNot() throws Exception {
        String tenant = "StalledSubscriberTest";
        db.clearTenant(tenant);
        long pk = db.insertTask(tenant, "alice", "huge", "ctx", "TASK_STATE_WORKING", Instant.now().minusSeconds(5));
        db.execute("INSERT INTO artifacts (task_pk, artifact_id, ord, name, parts) VALUES (" + pk
                + ", 'big', 0, 'big', jsonb_build_array(jsonb_build_object('text', repeat('x', 2 * 1024 * 1024))))");
        String request = "GET /tasks/huge:subscribe HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Tokens.valid(tenant, "alice")
                + "\r\nA2A-Version: 1.0\r\nAccept: text/event-stream\r\n\r\n";

        try (Socket stalled = new Socket(); Socket reader = new Socket()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress(root.getHost(), root.getPort()));
            stalled.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            reader.connect(new InetSocketAddress(root.getHost(), root.getPort()));
            OutputStream out = reader.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            long readerBytes = readFor(reader, 3_000); // the snapshot, then the stream stays open: the task is WORKING
            assertTrue(readerBytes > 2 * 1024 * 1024, "the reading subscriber got the snapshot: " + readerBytes);

            Thread.sleep(1_500); // past the stall bound: the stalled one has read nothing for 4.5 s now
            stalled.setSoTimeout(15_000);
            InputStream in = stalled.getInputStream();
            byte[] buffer = new byte[65536];
            long read = 0;
            try {
                for (int n; (n = in.read(buffer)) >= 0;) {
                    read += n;
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the stalled subscriber's stream is still open after " + read + " bytes");
            } catch (java.net.SocketException reset) {
                // closed by the service: what was buffered is gone with the connection
            }
            // Reaching the end at all is the cut-off: the task is WORKING, so its stream would stay
            // open. (How much of the snapshot got through first is the kernels' business.)

            assertTrue(readFor(reader, 500) >= 0, "the reading subscriber's stream is still open");
        }
    }

    /** Reads what arrives on the socket for {@code millis}; the count of bytes. */
    private static long readFor(Socket socket, long millis) throws Exception {
        socket.setSoTimeout(100);
        byte[] buffer = new byte[65536];
        long read = 0;
        long until = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < until) {
            try {
                int n = socket.getInputStream().read(buffer);
                if (n < 0) {
                    return -1 - read;
                }
                read += n;
            } catch (SocketTimeoutException idle) {
                // nothing more for now
            }
        }
        return read;
    }
}
