package dev.a2atasks.client;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;

/** One ListTasks call over some binding. Implementations throw {@link ListingException} for refusals. */
public interface TaskListing extends AutoCloseable {

    ListTasksResponse list(ListTasksRequest request);

    @Override
    default void close() {
    }
}
