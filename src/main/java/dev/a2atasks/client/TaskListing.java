package dev.a2atasks.client;

import java.time.Duration;
import java.util.Optional;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;

/** One ListTasks call over some binding. Implementations throw {@link ListingException} for refusals. */
public interface TaskListing extends AutoCloseable {

    ListTasksResponse list(ListTasksRequest request);

    /**
     * The catch-up skew the server publishes in its Agent Card ({@link CatchUpHint}), when this
     * listing knows where the card is and the card declares one. Walkers and mirrors without a
     * skew of their own use it.
     */
    default Optional<Duration> publishedSkew() {
        return Optional.empty();
    }

    @Override
    default void close() {
    }
}
