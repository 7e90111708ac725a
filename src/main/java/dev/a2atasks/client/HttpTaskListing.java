package dev.a2atasks.client;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Supplier;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;

import dev.a2atasks.proto.history.v1.Direction;
import dev.a2atasks.proto.history.v1.ListTaskMessagesRequest;
import dev.a2atasks.proto.history.v1.ListTaskMessagesResponse;
import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.TaskState;

/**
 * ListTasks over HTTP+JSON ({@code GET {base}/tasks}), and ListTaskMessages (history paging,
 * {@code GET {base}/tasks/{id}/messages} declared in {@code A2A-Extensions}), with the JDK's HTTP client.
 */
public final class HttpTaskListing implements RemoteTasks {

    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

    private final HttpClient http;
    private final URI base;
    private final Supplier<String> bearerToken;
    private final Duration timeout;

    /**
     * @param base the Agent Card's HTTP+JSON interface url, e.g. {@code https://tasks.example}; a path in it
     *             ({@code https://host/a2a/v1}) is a prefix that every request keeps
     */
    public HttpTaskListing(URI base, Supplier<String> bearerToken, Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.base = URI.create(base.toString().replaceAll("/+$", ""));
        this.bearerToken = bearerToken;
        this.timeout = timeout;
    }

    @Override
    public ListTasksResponse list(ListTasksRequest request) {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        if (!request.getContextId().isEmpty()) {
            query.add(param("contextId", request.getContextId()));
        }
        if (request.getStatus() != TaskState.TASK_STATE_UNSPECIFIED) {
            query.add(param("status", request.getStatus().name()));
        }
        if (request.hasPageSize()) {
            query.add(param("pageSize", Integer.toString(request.getPageSize())));
        }
        if (!request.getPageToken().isEmpty()) {
            query.add(param("pageToken", request.getPageToken()));
        }
        if (request.hasHistoryLength()) {
            query.add(param("historyLength", Integer.toString(request.getHistoryLength())));
        }
        if (request.hasStatusTimestampAfter()) {
            query.add(param("statusTimestampAfter", Timestamps.toString(request.getStatusTimestampAfter())));
        }
        if (request.hasIncludeArtifacts()) {
            query.add(param("includeArtifacts", Boolean.toString(request.getIncludeArtifacts())));
        }
        String path = prefix(request.getTenant()) + "/tasks";
        return get(path + query, false, ListTasksResponse.newBuilder()).build();
    }

    @Override
    public ListTaskMessagesResponse listMessages(ListTaskMessagesRequest request) {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        if (request.hasPageSize()) {
            query.add(param("pageSize", Integer.toString(request.getPageSize())));
        }
        if (!request.getPageToken().isEmpty()) {
            query.add(param("pageToken", request.getPageToken()));
        }
        if (request.getDirection() != Direction.DIRECTION_UNSPECIFIED) {
            query.add(param("direction", request.getDirection().name()));
        }
        if (request.getStartCase() == ListTaskMessagesRequest.StartCase.START_SEQ) {
            query.add(param("startSeq", Long.toString(request.getStartSeq())));
        } else if (request.getStartCase() == ListTaskMessagesRequest.StartCase.START_MESSAGE_ID) {
            query.add(param("startMessageId", request.getStartMessageId()));
        }
        String path = prefix(request.getTenant()) + "/tasks/" + segment(request.getTaskId()) + "/messages";
        try {
            return get(path + query, true, ListTaskMessagesResponse.newBuilder()).build();
        } catch (ListingException e) {
            throw e.of(HistoryPaging.METHOD);
        }
    }

    private static String prefix(String tenant) {
        return tenant.isEmpty() ? "" : "/" + segment(tenant);
    }

    /** A path segment: percent-encoded, a space as %20 (URLEncoder writes '+', which a path keeps literally). */
    private static String segment(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** GET of a path under the base; the answer read into {@code into}, any other answer a ListingException. */
    private <B extends com.google.protobuf.Message.Builder> B get(String pathAndQuery, boolean historyPaging, B into) {
        HttpRequest.Builder call = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(timeout)
                .header("Authorization", "Bearer " + bearerToken.get())
                .header("A2A-Version", "1.0")
                .header("Accept", "application/a2a+json");
        if (historyPaging) {
            call.header("A2A-Extensions", HistoryPaging.URI);
        }
        HttpResponse<String> response;
        try {
            response = http.send(call.GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw TransportFailures.of(base.toString(), e, "https".equalsIgnoreCase(base.getScheme()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ListingException(base.toString(), "CANCELLED", "interrupted", List.of(), e);
        }
        try {
            if (response.statusCode() == 200) {
                PARSER.merge(response.body(), into);
                return into;
            }
        } catch (InvalidProtocolBufferException e) {
            throw new ListingException(base.toString(), "INTERNAL", "unreadable response (HTTP 200): " + e.getMessage(),
                    List.of(), e);
        }
        throw error(base.toString(), response);
    }

    /**
     * Reads the binding's error body, {@code {"error": google.rpc.Status + "status"}}, with protobuf's
     * own JSON parser: the client needs no JSON library beyond protobuf-java-util.
     */
    static ListingException error(String endpoint, HttpResponse<String> response) {
        String fallback = "HTTP " + response.statusCode();
        Struct body;
        try {
            Struct.Builder parsed = Struct.newBuilder();
            JsonFormat.parser().merge(response.body(), parsed);
            body = parsed.getFieldsOrDefault("error", Value.getDefaultInstance()).getStructValue();
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            String text = response.body().length() > 200 ? response.body().substring(0, 200) + "..." : response.body();
            return new ListingException(endpoint, statusOf(response.statusCode()), fallback + " " + text.strip(), List.of(), null);
        }
        List<String> fields = new ArrayList<>();
        for (Value detail : body.getFieldsOrDefault("details", Value.getDefaultInstance()).getListValue().getValuesList()) {
            Struct fieldsOfDetail = detail.getStructValue();
            if ("type.googleapis.com/google.rpc.BadRequest".equals(text(fieldsOfDetail, "@type"))) {
                for (Value violation : fieldsOfDetail.getFieldsOrDefault("fieldViolations", Value.getDefaultInstance())
                        .getListValue().getValuesList()) {
                    fields.add(text(violation.getStructValue(), "field"));
                }
            }
        }
        String status = text(body, "status");
        String message = text(body, "message");
        return new ListingException(endpoint, status.isEmpty() ? statusOf(response.statusCode()) : status,
                (message.isEmpty() ? "" : message + " ") + "(" + fallback + ")", fields, null);
    }

    private static String text(Struct struct, String field) {
        return struct.getFieldsOrDefault(field, Value.getDefaultInstance()).getStringValue();
    }

    /** The gRPC status an HTTP status maps to when the body names none (a proxy's answer, say). */
    private static String statusOf(int http) {
        return switch (http) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 502, 503, 504 -> "UNAVAILABLE";
            default -> "HTTP_" + http;
        };
    }

    @Override
    public Optional<Duration> publishedSkew() {
        return AgentCardReader.catchUpSkew(http, AgentCardReader.wellKnown(base), timeout);
    }

    private static String param(String name, String value) {
        return name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
