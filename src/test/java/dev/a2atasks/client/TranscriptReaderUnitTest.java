package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.proto.history.v1.TaskMessage;
import dev.a2atasks.proto.v1.Message;

/**
 * What the reader refuses from a server that misbehaves (the real server's answers are tested in
 * TranscriptCopyTest): these answers cannot be had from it, so they are scripted here.
 */
class TranscriptReaderUnitTest {

    /** Answers each call with the next scripted page, recording what was asked. */
    private static final class Scripted implements MessageListing {
        final Deque<ListTaskMessagesResponse> pages = new ArrayDeque<>();
        final List<ListTaskMessagesRequest> asked = new java.util.ArrayList<>();

        Scripted page(String next, long... seqs) {
            ListTaskMessagesResponse.Builder page = ListTaskMessagesResponse.newBuilder().setNextPageToken(next);
            for (long seq : seqs) {
                page.addMessages(TaskMessage.newBuilder().setSeq(seq).setMessage(Message.newBuilder().setMessageId("m" + seq)));
            }
            pages.add(page.build());
            return this;
        }

        @Override
        public ListTaskMessagesResponse listMessages(ListTaskMessagesRequest request) {
            asked.add(request);
            return pages.removeFirst();
        }
    }

    @Test
    void pagesUntilTheTokenIsEmptyAndPassesTheTokenOn() {
        Scripted server = new Scripted().page("a", 0, 1).page("b", 2, 3).page("", 4);
        List<TaskMessage> all = new TranscriptReader(server, 2).readAll("", "t", Direction.DIRECTION_OLDEST_FIRST, null);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), all.stream().map(TaskMessage::getSeq).toList());
        assertEquals(List.of("", "a", "b"), server.asked.stream().map(ListTaskMessagesRequest::getPageToken).toList());
        assertTrue(server.asked.stream().allMatch(r -> r.getPageSize() == 2 && r.getTaskId().equals("t")));
    }

    @Test
    void aRepeatedOrReorderedMessageFailsTheRead() {
        ListingException repeated = assertThrows(ListingException.class, () -> new TranscriptReader(
                new Scripted().page("a", 0, 1).page("", 1, 2), 2).readAll("", "t", Direction.DIRECTION_OLDEST_FIRST, null));
        assertEquals("INTERNAL", repeated.status());
        assertThrows(ListingException.class, () -> new TranscriptReader(new Scripted().page("", 5, 6), 2)
                .readAll("", "t", Direction.DIRECTION_NEWEST_FIRST, null), "newest first must go down");
        assertThrows(ListingException.class, () -> new TranscriptReader(new Scripted().page("more"), 2)
                .readAll("", "t", Direction.DIRECTION_NEWEST_FIRST, null), "an empty page with a token would loop forever");
    }

    @Test
    void aCopyAppendsOnlyWhatFollowsItsNewestMessage() {
        InMemoryTranscriptStore local = new InMemoryTranscriptStore();
        local.append("t", List.of(Message.newBuilder().setMessageId("m0").build(), Message.newBuilder().setMessageId("m1").build()));
        // Newest first: 4, 3, then 2 and 1 — m1 is held, so the read stops there.
        Scripted server = new Scripted().page("x", 4, 3).page("y", 2, 1);
        TranscriptCopy.SyncResult sync = new TranscriptCopy(server, local, 2).sync("", "t");
        assertEquals(3, sync.added());
        assertEquals(2, server.asked.size());
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), local.messages("t").stream().map(Message::getMessageId).toList());
    }
}
