package dev.a2atasks.client;

/** A connection to one A2A server that lists its tasks and, with history paging, their transcripts. */
public interface RemoteTasks extends TaskListing, MessageListing {

    @Override
    default void close() {
    }
}
