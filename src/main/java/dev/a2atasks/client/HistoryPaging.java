package dev.a2atasks.client;

import java.util.OptionalInt;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;

import dev.a2atasks.proto.v1.AgentCard;
import dev.a2atasks.proto.v1.AgentExtension;

/**
 * The history-paging extension of this project (proto {@code a2atasks.history.v1}): any window of a
 * task's transcript, newest first or oldest first, in pages with sealed tokens. A client opts in per
 * request by naming {@link #URI} in {@code A2A-Extensions} (gRPC metadata {@code a2a-extensions});
 * without it the operation is refused with ExtensionSupportRequiredError. Declared with
 * {@code required: false}: standard clients keep using {@code historyLength} and see no change.
 */
public final class HistoryPaging {

    /** The extension's URI; a breaking change gets a new one (v2). */
    public static final String URI = "https://a2a-tasks.dev/extensions/history-paging/v1";
    /** The operation's name: gRPC method of {@code TaskHistoryService} and JSON-RPC method. */
    public static final String METHOD = "ListTaskMessages";
    /** The declaration's parameter: the largest pageSize the server takes. */
    public static final String MAX_PAGE_SIZE = "maxPageSize";
    /** The declaration's parameter: the pageSize of a request that sets none. */
    public static final String DEFAULT_PAGE_SIZE = "defaultPageSize";

    private HistoryPaging() {
    }

    /** The declaration a server puts in {@code capabilities.extensions}. */
    public static AgentExtension declaration(int defaultPageSize, int maxPageSize) {
        return AgentExtension.newBuilder()
                .setUri(URI)
                .setDescription("History paging: ListTaskMessages reads any window of a task's transcript, newest or"
                        + " oldest first, from a message id or seq, in pages of at most maxPageSize with sealed"
                        + " tokens. Opt in per request with the A2A-Extensions header; GetTask's historyLength is"
                        + " unchanged.")
                .setRequired(false)
                .setParams(Struct.newBuilder()
                        .putFields(MAX_PAGE_SIZE, Value.newBuilder().setNumberValue(maxPageSize).build())
                        .putFields(DEFAULT_PAGE_SIZE, Value.newBuilder().setNumberValue(defaultPageSize).build()))
                .build();
    }

    /** The largest page size a card declares for this extension; empty when it does not declare it. */
    public static OptionalInt maxPageSize(AgentCard card) {
        for (AgentExtension extension : card.getCapabilities().getExtensionsList()) {
            if (URI.equals(extension.getUri())) {
                Value value = extension.getParams().getFieldsOrDefault(MAX_PAGE_SIZE, Value.getDefaultInstance());
                double size = value.getNumberValue();
                return value.hasNumberValue() && size >= 1 && size <= Integer.MAX_VALUE ? OptionalInt.of((int) size) : OptionalInt.empty();
            }
        }
        return OptionalInt.empty();
    }
}
