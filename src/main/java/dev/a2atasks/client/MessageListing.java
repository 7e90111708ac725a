package dev.a2atasks.client;

import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;

/**
 * One ListTaskMessages call (history-paging extension, {@link HistoryPaging}) over some binding,
 * declaring the extension in {@code A2A-Extensions}. Implementations throw {@link ListingException}
 * for refusals; a server without the extension refuses with FAILED_PRECONDITION.
 */
public interface MessageListing extends AutoCloseable {

    ListTaskMessagesResponse listMessages(ListTaskMessagesRequest request);

    @Override
    default void close() {
    }
}
