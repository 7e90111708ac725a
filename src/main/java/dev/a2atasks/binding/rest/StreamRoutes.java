package dev.a2atasks.binding.rest;

import dev.a2atasks.binding.http.HttpLimitsConfig;
import java.nio.charset.StandardCharsets;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.binding.json.ErrorJson;
import dev.a2atasks.binding.json.EventStream;
import dev.a2atasks.binding.json.HttpError;
import dev.a2atasks.binding.json.HttpServiceParameters;
import dev.a2atasks.binding.json.ProtoBodies;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.StreamResponse;
import dev.a2atasks.proto.v1.SubscribeToTaskRequest;
import dev.a2atasks.protocol.A2AOperations;
import dev.a2atasks.protocol.Admission;
import dev.a2atasks.protocol.CallContext;
import dev.a2atasks.protocol.Failures;
import io.smallrye.mutiny.Multi;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The HTTP+JSON streaming routes (spec §11.3, §11.7): {@code POST [/{tenant}]/message:stream} and
 * {@code GET|POST [/{tenant}]/tasks/{id}:subscribe}, answered with Server-Sent Events. They are
 * router routes rather than resource methods because an SSE response from the REST layer is
 * committed before its first event, and an error found before it (an unknown task, a bad body)
 * must still be an ordinary HTTP error with the A2A body. Like every binding: decode, call the
 * port, encode.
 */
@ApplicationScoped
public class StreamRoutes {

    /** Before the REST layer's own route, after the HTTP filter that records service parameters. */
    private static final int ORDER = -100;
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

    private final Admission admission;
    private final A2AOperations port;
    private final Failures failures;

    private final HttpLimitsConfig limits;

    StreamRoutes(Admission admission, A2AOperations port, Failures failures, HttpLimitsConfig limits) {
        this.limits = limits;
        this.admission = admission;
        this.port = port;
        this.failures = failures;
    }

    /** The two streaming routes (OpenApiRoutesTest checks the OpenAPI document against them). */
    static final String MESSAGE_STREAM = "^/(?:([^/]+)/)?message:stream$";
    static final String SUBSCRIBE = "^/(?:([^/]+)/)?tasks/([^/]+):subscribe$";

    void register(@Observes Router router) {
        router.routeWithRegex(HttpMethod.POST, MESSAGE_STREAM).order(ORDER)
                .handler(BodyHandler.create(false).setBodyLimit(2 * 1024 * 1024)).handler(this::sendStreamingMessage);
        router.routeWithRegex(SUBSCRIBE).method(HttpMethod.GET).method(HttpMethod.POST)
                .order(ORDER).handler(this::subscribeToTask);
    }

    private void sendStreamingMessage(RoutingContext context) {
        byte[] body = context.body().buffer() == null ? null : context.body().buffer().getBytes();
        stream(context, call -> port.sendStreamingMessage(call, ProtoBodies.parseBody(
                context.request().getHeader("Content-Type"), body, SendMessageRequest.newBuilder(), tenant(context)).build()));
    }

    private void subscribeToTask(RoutingContext context) {
        SubscribeToTaskRequest request = SubscribeToTaskRequest.newBuilder().setTenant(tenant(context))
                .setId(context.pathParam("param1")).build();
        stream(context, call -> port.subscribeToTask(call, request));
    }

    private void stream(RoutingContext context, java.util.function.Function<CallContext, Multi<StreamResponse>> operation) {
        Multi<String> events = admission.admit(HttpServiceParameters.of(context), HttpServiceParameters.identity(context)).onItem().transformToMulti(operation)
                .map(StreamRoutes::json);
        String accept = context.request().getHeader(HttpHeaders.ACCEPT);
        EventStream.pipe(context, events, failure -> HttpError.of(failures.classify(failure, "HTTP+JSON"), accept),
                failure -> ErrorJson.httpBody(failures.classify(failure, "HTTP+JSON")).toString(), limits);
    }

    private static String tenant(RoutingContext context) {
        String tenant = context.pathParam("param0");
        return tenant == null ? "" : tenant;
    }

    private static String json(StreamResponse event) {
        try {
            return PRINTER.print(event);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
    }
}
