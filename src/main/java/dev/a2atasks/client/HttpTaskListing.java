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
import java.util.StringJoiner;
import java.util.function.Supplier;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;

import dev.a2atasks.proto.v1.ListTasksRequest;
import dev.a2atasks.proto.v1.ListTasksResponse;
import dev.a2atasks.proto.v1.TaskState;

/** ListTasks over HTTP+JSON ({@code GET {base}/tasks}), with the JDK's HTTP client. */
public final class HttpTaskListing implements TaskListing {

    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

    private final HttpClient http;
    private final URI base;
    private final Supplier<String> bearerToken;
    private final Duration timeout;

    /** @param base the Agent Card's HTTP+JSON interface url, e.g. {@code https://tasks.example} */
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
        String path = request.getTenant().isEmpty() ? "/tasks" : "/" + URLEncoder.encode(request.getTenant(), StandardCharsets.UTF_8) + "/tasks";
        HttpRequest call = HttpRequest.newBuilder(URI.create(base + path + query))
                .timeout(timeout)
                .header("Authorization", "Bearer " + bearerToken.get())
                .header("A2A-Version", "1.0")
                .header("Accept", "application/a2a+json")
                .GET().build();
        HttpResponse<String> response;
        try {
            response = http.send(call, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ListingException("UNAVAILABLE", e.toString(), List.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ListingException("CANCELLED", "interrupted", List.of());
        }
        try {
            if (response.statusCode() == 200) {
                ListTasksResponse.Builder page = ListTasksResponse.newBuilder();
                PARSER.merge(response.body(), page);
                return page.build();
            }
            throw error(response);
        } catch (InvalidProtocolBufferException e) {
            throw new ListingException("INTERNAL", "Unreadable response (HTTP " + response.statusCode() + ")", List.of());
        }
    }

    /** Reads the {"error": google.rpc.Status} body of the HTTP+JSON binding. */
    private static ListingException error(HttpResponse<String> response) {
        com.fasterxml.jackson.databind.JsonNode body;
        try {
            body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body()).path("error");
        } catch (IOException e) {
            return new ListingException("HTTP_" + response.statusCode(), response.body(), List.of());
        }
        List<String> fields = new ArrayList<>();
        for (var detail : body.path("details")) {
            if ("type.googleapis.com/google.rpc.BadRequest".equals(detail.path("@type").asText())) {
                detail.path("fieldViolations").forEach(v -> fields.add(v.path("field").asText()));
            }
        }
        String status = body.path("status").asText("HTTP_" + response.statusCode());
        return new ListingException(status, body.path("message").asText(), fields);
    }

    private static String param(String name, String value) {
        return name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
