package dev.a2atasks.support;

import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.a2atasks.client.HistoryPaging;
import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.support.PushApi.Answer;

/**
 * ListTaskMessages (history-paging extension) through each binding as a client sends it: the
 * HTTP+JSON route with query parameters, the JSON-RPC method, the gRPC service; opted in with
 * A2A-Extensions unless told not to.
 */
public final class HistoryApi {

    private final URL root;

    public HistoryApi(URL root) {
        this.root = root;
    }

    public Answer<ListTaskMessagesResponse> list(String binding, String bearer, ListTaskMessagesRequest request) {
        return list(binding, bearer, request, true);
    }

    public Answer<ListTaskMessagesResponse> list(String binding, String bearer, ListTaskMessagesRequest request, boolean optIn) {
        String extensions = optIn ? HistoryPaging.URI : null;
        return switch (binding) {
            case "HTTP+JSON" -> PushApi.rest("GET", bearer, extensions, path(request), null, ListTaskMessagesResponse.newBuilder());
            case "JSONRPC" -> PushApi.jsonRpc(bearer, extensions, HistoryPaging.METHOD, PushApi.json(request),
                    ListTaskMessagesResponse.newBuilder());
            default -> PushApi.grpc(root, channels -> channels.history(bearer, optIn).listTaskMessages(request));
        };
    }

    /** The request as the HTTP+JSON route and query parameters it maps to. */
    static String path(ListTaskMessagesRequest request) {
        List<String> query = new ArrayList<>();
        if (request.hasPageSize()) {
            query.add("pageSize=" + request.getPageSize());
        }
        if (!request.getPageToken().isEmpty()) {
            query.add("pageToken=" + encode(request.getPageToken()));
        }
        if (request.getDirection() != Direction.DIRECTION_UNSPECIFIED) {
            query.add("direction=" + request.getDirection().name());
        }
        if (request.getStartCase() == ListTaskMessagesRequest.StartCase.START_SEQ) {
            query.add("startSeq=" + request.getStartSeq());
        } else if (request.getStartCase() == ListTaskMessagesRequest.StartCase.START_MESSAGE_ID) {
            query.add("startMessageId=" + encode(request.getStartMessageId()));
        }
        String prefix = request.getTenant().isEmpty() ? "" : "/" + encode(request.getTenant());
        return prefix + "/tasks/" + encode(request.getTaskId()) + "/messages" + (query.isEmpty() ? "" : "?" + String.join("&", query));
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
