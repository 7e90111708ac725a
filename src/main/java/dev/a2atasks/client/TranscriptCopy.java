package dev.a2atasks.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.TaskMessage;
import dev.a2atasks.proto.v1.Message;

/**
 * A local copy of remote tasks' transcripts, kept in a {@link TranscriptStore} by (task, message
 * id): the seed article's "keep your own copy", since a standard A2A server only ever shows the tail.
 *
 * <p>{@link #sync} brings one task's copy up to date with the server through ListTaskMessages:
 * <ul>
 * <li>an empty copy reads the whole transcript oldest first, appending page by page (a
 * 100,000-message task never sits in memory);</li>
 * <li>a copy that holds messages reads newest first until it meets a message it holds: whatever
 * came after it, however many syncs were missed (the gap), is appended oldest first. When more
 * than {@code maxBuffered} messages are new, they are not kept in memory: the read goes on only
 * to find the newest held message, then reads the new ones again oldest first from just after it.</li>
 * </ul>
 * An interrupted sync leaves a correct prefix (appends are in order and idempotent); the next
 * sync goes on from it. A copy that misses older messages (made from {@code historyLength} tails)
 * keeps that hole; a sync fills only what follows its newest message.
 *
 * <p>Blocking.
 */
public final class TranscriptCopy {

    private final MessageListing listing;
    private final TranscriptStore store;
    private final int pageSize;
    private final int maxBuffered;

    /** What one sync did: messages appended, pages read, and how. */
    public record SyncResult(long added, int pages, boolean fromScratch, boolean readTwice) {
    }

    public TranscriptCopy(MessageListing listing, TranscriptStore store, int pageSize) {
        this(listing, store, pageSize, 10_000);
    }

    /** @param maxBuffered most new messages held in memory while looking for the copy's newest one */
    public TranscriptCopy(MessageListing listing, TranscriptStore store, int pageSize, int maxBuffered) {
        this.listing = listing;
        this.store = store;
        this.pageSize = pageSize;
        this.maxBuffered = maxBuffered;
    }

    public SyncResult sync(String tenant, String taskId) {
        TranscriptReader reader = new TranscriptReader(listing, pageSize);
        if (store.isEmpty(taskId)) {
            long[] added = { 0 };
            TranscriptReader.ReadResult read = reader.read(tenant, taskId, Direction.DIRECTION_OLDEST_FIRST, null, page -> {
                store.append(taskId, messages(page));
                added[0] += page.size();
                return true;
            });
            return new SyncResult(added[0], read.pages(), true, false);
        }
        List<TaskMessage> fresh = new ArrayList<>(); // newest first
        Long[] held = { null }; // seq of the newest message the copy holds
        boolean[] overflow = { false };
        TranscriptReader.ReadResult scan = reader.read(tenant, taskId, Direction.DIRECTION_NEWEST_FIRST, null, page -> {
            Set<String> known = store.known(taskId, page.stream().map(m -> m.getMessage().getMessageId()).toList());
            for (TaskMessage m : page) {
                if (known.contains(m.getMessage().getMessageId())) {
                    held[0] = m.getSeq();
                    return false;
                }
                if (!overflow[0] && fresh.size() < maxBuffered) {
                    fresh.add(m);
                } else {
                    overflow[0] = true;
                    fresh.clear();
                }
            }
            return true;
        });
        if (!overflow[0]) {
            Collections.reverse(fresh);
            for (int from = 0; from < fresh.size(); from += pageSize) {
                store.append(taskId, messages(fresh.subList(from, Math.min(fresh.size(), from + pageSize))));
            }
            return new SyncResult(fresh.size(), scan.pages(), false, false);
        }
        long[] added = { 0 };
        TranscriptReader.ReadResult again = reader.read(tenant, taskId, Direction.DIRECTION_OLDEST_FIRST,
                held[0] == null ? null : held[0] + 1, page -> {
                    store.append(taskId, messages(page));
                    added[0] += page.size();
                    return true;
                });
        return new SyncResult(added[0], scan.pages() + again.pages(), false, true);
    }

    private static List<Message> messages(List<TaskMessage> page) {
        return page.stream().map(TaskMessage::getMessage).toList();
    }
}
