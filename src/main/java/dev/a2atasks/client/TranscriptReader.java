package dev.a2atasks.client;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.proto.history.v1.TaskMessage;

/**
 * Reads a task's transcript page by page with ListTaskMessages (history paging), newest or oldest
 * first, from the start or from a seq, until the server's nextPageToken is empty. Every page is
 * checked before it is handed on: its seqs must keep going the walk's way, strictly, so a server
 * (or a proxy) that repeats or reorders messages fails the read instead of corrupting a copy.
 *
 * <p>Blocking, like the listings it calls.
 */
public final class TranscriptReader {

    private final MessageListing listing;
    private final int pageSize;

    /** @param pageSize messages per request, 1 to the server's {@code maxPageSize} ({@link HistoryPaging#maxPageSize}) */
    public TranscriptReader(MessageListing listing, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be at least 1, not " + pageSize);
        }
        this.listing = listing;
        this.pageSize = pageSize;
    }

    /** What one read did: pages requested, messages handed on, and the last seq handed on (-1: none). */
    public record ReadResult(int pages, long messages, long lastSeq) {
    }

    /** Takes one page of messages in the walk's order; answers whether the read should go on. */
    public interface PageHandler {
        boolean accept(List<TaskMessage> page);
    }

    /**
     * Hands each page's messages, in the walk's order, to {@code pages}. {@code fromSeq} null:
     * from the newest (newest first) or the oldest (oldest first) message; else from that seq, included.
     */
    public ReadResult read(String tenant, String taskId, Direction direction, Long fromSeq, Consumer<List<TaskMessage>> pages) {
        return read(tenant, taskId, direction, fromSeq, page -> {
            pages.accept(page);
            return true;
        });
    }

    /** The same, ending early when the handler says so. */
    public ReadResult read(String tenant, String taskId, Direction direction, Long fromSeq, PageHandler pages) {
        boolean newestFirst = direction != Direction.DIRECTION_OLDEST_FIRST;
        ListTaskMessagesRequest.Builder first = ListTaskMessagesRequest.newBuilder().setTenant(tenant == null ? "" : tenant)
                .setTaskId(taskId).setDirection(newestFirst ? Direction.DIRECTION_NEWEST_FIRST : Direction.DIRECTION_OLDEST_FIRST)
                .setPageSize(pageSize);
        if (fromSeq != null) {
            first.setStartSeq(fromSeq);
        }
        int count = 0;
        long messages = 0;
        long last = -1;
        String token = "";
        do {
            ListTaskMessagesResponse page = listing.listMessages(first.setPageToken(token).build());
            count++;
            for (TaskMessage m : page.getMessagesList()) {
                boolean inOrder = messages == 0 ? m.getSeq() >= 0 : newestFirst ? m.getSeq() < last : m.getSeq() > last;
                if (!inOrder) {
                    throw new ListingException("INTERNAL", "ListTaskMessages for task " + taskId + " returned seq " + m.getSeq()
                            + " after seq " + last + " in a " + (newestFirst ? "newest" : "oldest") + "-first walk", List.of());
                }
                last = m.getSeq();
                messages++;
            }
            if (page.getMessagesCount() > 0 && !pages.accept(page.getMessagesList())) {
                break;
            }
            token = page.getNextPageToken();
            if (!token.isEmpty() && page.getMessagesCount() == 0) {
                throw new ListingException("INTERNAL", "ListTaskMessages for task " + taskId
                        + " returned an empty page with a next page token", List.of());
            }
        } while (!token.isEmpty());
        return new ReadResult(count, messages, last);
    }

    /** The whole transcript (or the rest of it from {@code fromSeq}) in memory: for short transcripts and tests. */
    public List<TaskMessage> readAll(String tenant, String taskId, Direction direction, Long fromSeq) {
        List<TaskMessage> all = new ArrayList<>();
        read(tenant, taskId, direction, fromSeq, (Consumer<List<TaskMessage>>) all::addAll);
        return all;
    }
}
