package dev.a2atasks.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.client.GrpcTaskListing;
import dev.a2atasks.client.HttpTaskListing;
import dev.a2atasks.client.InMemoryTranscriptStore;
import dev.a2atasks.client.ListingException;
import dev.a2atasks.client.RemoteTasks;
import dev.a2atasks.client.TranscriptCopy;
import dev.a2atasks.client.TranscriptReader;
import dev.a2atasks.mirror.Mirror;
import dev.a2atasks.mirror.MirrorSource;
import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.TaskMessage;
import dev.a2atasks.proto.v1.Message;
import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/**
 * The client side of history paging over gRPC and HTTP+JSON: the reader pages a whole transcript
 * either way, the transcript copy keeps a local store by (task, message id) and closes gaps, and
 * the mirror copies whole transcripts with it.
 */
@QuarkusTest
class TranscriptCopyTest extends BindingTest {

    private static final Instant BASE = Instant.parse("2026-08-01T00:00:00Z");

    @Inject
    Mirror mirror;

    private RemoteTasks remote(String binding, String tenant) {
        String token = Tokens.valid(tenant, "alice");
        return binding.equals("grpc")
                ? new GrpcTaskListing(root.getHost() + ":" + root.getPort(), true, () -> token, Duration.ofSeconds(30))
                : new HttpTaskListing(URI.create(root.toString()), () -> token, Duration.ofSeconds(30));
    }

    /** Appends messages m{from}..m{to-1} to a task at the source, as its writer would (seq = position). */
    private void grow(long pk, int from, int to) {
        db.execute("INSERT INTO messages (task_pk, owner, seq, message_id, role, parts) SELECT t.pk, t.owner, g, 'm' || g, 'ROLE_AGENT', "
                + "jsonb_build_array(jsonb_build_object('text', 'message ' || g)) FROM tasks t, generate_series(" + from + ", " + (to - 1)
                + ") AS g WHERE t.pk = " + pk);
        db.execute("UPDATE tasks SET next_seq = " + to + ", status_ts = now() WHERE pk = " + pk);
    }

    private static List<String> ids(int from, int to) {
        return LongStream.range(from, to).mapToObj(i -> "m" + i).toList();
    }

    private static List<String> ids(List<Message> messages) {
        return messages.stream().map(Message::getMessageId).toList();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void theReaderPagesAWholeTranscriptEitherWay(String binding) {
        String tenant = freshTenant("reader-" + binding, api("GRPC"));
        long pk = db.insertTask(tenant, "alice", "t", "ctx", "TASK_STATE_WORKING", BASE);
        db.insertMessages(pk, 2_345);
        try (RemoteTasks remote = remote(binding, tenant)) {
            TranscriptReader reader = new TranscriptReader(remote, 100);
            List<Long> up = reader.readAll(null, "t", Direction.DIRECTION_OLDEST_FIRST, null).stream().map(TaskMessage::getSeq).toList();
            assertEquals(LongStream.range(0, 2_345).boxed().toList(), up);
            List<Long> down = reader.readAll(null, "t", Direction.DIRECTION_NEWEST_FIRST, null).stream().map(TaskMessage::getSeq).toList();
            assertEquals(LongStream.range(0, 2_345).map(i -> 2_344 - i).boxed().toList(), down);
            List<Long> tail = reader.readAll(null, "t", Direction.DIRECTION_OLDEST_FIRST, 2_300L).stream().map(TaskMessage::getSeq).toList();
            assertEquals(LongStream.range(2_300, 2_345).boxed().toList(), tail);

            ListingException foreign = assertThrows(ListingException.class, () -> new TranscriptReader(remote(binding, tenant + "-x"), 10)
                    .readAll(null, "t", Direction.DIRECTION_OLDEST_FIRST, null));
            assertEquals("NOT_FOUND", foreign.status());
            assertTrue(foreign.getMessage().startsWith("ListTaskMessages at "), foreign.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void theCopyFollowsTheTranscriptAcrossGaps(String binding) {
        String tenant = freshTenant("copy-" + binding, api("GRPC"));
        long pk = db.insertTask(tenant, "alice", "t", "ctx", "TASK_STATE_WORKING", BASE);
        db.insertMessages(pk, 1_000);
        InMemoryTranscriptStore local = new InMemoryTranscriptStore();
        try (RemoteTasks remote = remote(binding, tenant)) {
            TranscriptCopy copy = new TranscriptCopy(remote, local, 100, 200);

            TranscriptCopy.SyncResult first = copy.sync(null, "t");
            assertTrue(first.fromScratch());
            assertEquals(1_000, first.added());
            assertEquals(ids(0, 1_000), ids(local.messages("t")));

            TranscriptCopy.SyncResult idle = copy.sync(null, "t");
            assertEquals(0, idle.added());
            assertEquals(1, idle.pages(), "the newest page already holds a known message");

            grow(pk, 1_000, 1_030); // a few syncs missed: the gap is read newest first until a held message
            TranscriptCopy.SyncResult small = copy.sync(null, "t");
            assertEquals(30, small.added());
            assertFalse(small.readTwice());
            assertEquals(ids(0, 1_030), ids(local.messages("t")));

            grow(pk, 1_030, 1_530); // more than the copy holds in memory: found, then read again oldest first
            TranscriptCopy.SyncResult large = copy.sync(null, "t");
            assertEquals(500, large.added());
            assertTrue(large.readTwice());
            assertEquals(ids(0, 1_530), ids(local.messages("t")), "no gap, no duplicate, in order");
            assertEquals(0, copy.sync(null, "t").added());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void theMirrorCopiesWholeTranscripts(String binding) {
        String sourceTenant = freshTenant("mirror-source-" + binding, api("GRPC"));
        String localTenant = freshTenant("mirror-local-" + binding, api("GRPC"));
        Instant now = Instant.now();
        long big = db.insertTask(sourceTenant, "alice", "big", "ctx", "TASK_STATE_WORKING", now.minusSeconds(5));
        db.insertMessages(big, 1_234);
        long small = db.insertTask(sourceTenant, "alice", "small", "ctx", "TASK_STATE_COMPLETED", now.minusSeconds(4));
        db.insertMessages(small, 3);
        db.insertTask(sourceTenant, "alice", "none", "", "TASK_STATE_SUBMITTED", now.minusSeconds(3));
        String endpoint = binding.equals("grpc") ? root.getHost() + ":" + root.getPort() : root.toString();
        MirrorSource source = MirrorSource.of("full-" + binding + "-" + System.nanoTime(), endpoint, binding, true,
                Tokens.valid(sourceTenant, "alice"), new Caller(localTenant, "copies"), 0, false, Duration.ofSeconds(30), 50,
                Duration.ofSeconds(30)).withFullHistory(100);

        Mirror.SyncResult first = mirror.sync(source);
        assertEquals(3, first.created(), first.toString());
        assertEquals(ids(0, 1_234), localIds(localTenant, "big"));
        assertEquals(ids(0, 3), localIds(localTenant, "small"));
        assertEquals(List.of(), localIds(localTenant, "none"));

        grow(big, 1_234, 1_300);
        Mirror.SyncResult next = mirror.sync(source);
        assertEquals(66, next.messagesAdded(), next.toString());
        assertEquals(ids(0, 1_300), localIds(localTenant, "big"), "the copy is the whole transcript, in order");
        Mirror.SyncResult idle = mirror.sync(source);
        assertEquals(0, idle.messagesAdded() + idle.created() + idle.updated(), idle.toString());
    }

    private List<String> localIds(String tenant, String taskId) {
        String ids = db.queryText("SELECT m.message_id FROM messages m JOIN tasks t ON t.pk = m.task_pk WHERE t.tenant = '" + tenant
                + "' AND t.owner = 'copies' AND t.id = '" + taskId + "' ORDER BY m.seq");
        return ids.isEmpty() ? List.of() : List.of(ids.split("\n"));
    }
}
