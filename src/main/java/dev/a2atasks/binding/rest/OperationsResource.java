package dev.a2atasks.binding.rest;

import java.nio.charset.StandardCharsets;

import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

import dev.a2atasks.binding.json.MediaTypes;
import dev.a2atasks.binding.json.ProtoBodies;
import dev.a2atasks.binding.json.TaskJson;
import dev.a2atasks.proto.v1.CancelTaskRequest;
import dev.a2atasks.proto.v1.DeleteTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.GetExtendedAgentCardRequest;
import dev.a2atasks.proto.v1.GetTaskPushNotificationConfigRequest;
import dev.a2atasks.proto.v1.ListTaskPushNotificationConfigsRequest;
import dev.a2atasks.proto.v1.SendMessageRequest;
import dev.a2atasks.proto.v1.TaskPushNotificationConfig;
import dev.a2atasks.protocol.A2AOperations;
import dev.a2atasks.task.TextParams;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The HTTP+JSON routes of the other A2A operations (spec §11.3), plain and tenant-prefixed (a
 * leading {tenant}). Each reads its request message (body and path) and calls the port. The two
 * streaming operations are {@link StreamRoutes}. {@code GET /tasks/{taskId}/messages} is the
 * history-paging extension's ListTaskMessages, its query parameters decoded by the shared
 * {@link TextParams}.
 */
@Path("/")
@Consumes(MediaType.WILDCARD)
@Produces({ MediaTypes.A2A_JSON, MediaType.APPLICATION_JSON })
public class OperationsResource {

    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

    private final RestCalls calls;
    private final A2AOperations port;

    OperationsResource(RestCalls calls, A2AOperations port) {
        this.calls = calls;
        this.port = port;
    }

    @POST
    @Path("{tenant:([^/]+/)?}message:send")
    public Uni<byte[]> sendMessage(RoutingContext request, @RestPath String tenant, byte[] body) {
        SendMessageRequest message = ProtoBodies.parseBody(contentType(request), body, SendMessageRequest.newBuilder(), tenant(tenant)).build();
        return calls.call(request, c -> port.sendMessage(c, message)).map(OperationsResource::json);
    }

    @POST
    @Path("{tenant:([^/]+/)?}tasks/{id}:cancel")
    public Uni<byte[]> cancelTask(RoutingContext request, @RestPath String tenant, @RestPath String id, byte[] body) {
        CancelTaskRequest cancel = ProtoBodies.parseBody(contentType(request), body, CancelTaskRequest.newBuilder(), tenant(tenant))
                .setId(id).build();
        return calls.call(request, c -> port.cancelTask(c, cancel)).map(TaskJson::task);
    }

    @POST
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs")
    public Uni<byte[]> createTaskPushNotificationConfig(RoutingContext request, @RestPath String tenant, @RestPath String taskId,
            byte[] body) {
        TaskPushNotificationConfig config = ProtoBodies.parseBody(contentType(request), body, TaskPushNotificationConfig.newBuilder(),
                tenant(tenant)).setTaskId(taskId).build();
        return calls.call(request, c -> port.createTaskPushNotificationConfig(c, config)).map(OperationsResource::json);
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs/{id}")
    public Uni<byte[]> getTaskPushNotificationConfig(RoutingContext request, @RestPath String tenant, @RestPath String taskId,
            @RestPath String id) {
        GetTaskPushNotificationConfigRequest get = GetTaskPushNotificationConfigRequest.newBuilder().setTenant(tenant(tenant))
                .setTaskId(taskId).setId(id).build();
        return calls.call(request, c -> port.getTaskPushNotificationConfig(c, get)).map(OperationsResource::json);
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs")
    public Uni<byte[]> listTaskPushNotificationConfigs(RoutingContext request, @RestPath String tenant, @RestPath String taskId,
            @RestQuery String pageSize, @RestQuery String pageToken) {
        ListTaskPushNotificationConfigsRequest list = TextParams.listPushConfigs(tenant(tenant), taskId, pageSize, pageToken);
        return calls.call(request, c -> port.listTaskPushNotificationConfigs(c, list)).map(OperationsResource::json);
    }

    @DELETE
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs/{id}")
    public Uni<byte[]> deleteTaskPushNotificationConfig(RoutingContext request, @RestPath String tenant, @RestPath String taskId,
            @RestPath String id) {
        DeleteTaskPushNotificationConfigRequest delete = DeleteTaskPushNotificationConfigRequest.newBuilder().setTenant(tenant(tenant))
                .setTaskId(taskId).setId(id).build();
        return calls.call(request, c -> port.deleteTaskPushNotificationConfig(c, delete)).map(OperationsResource::json);
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/messages")
    public Uni<byte[]> listTaskMessages(RoutingContext request, @RestPath String tenant, @RestPath String taskId,
            @RestQuery String pageSize, @RestQuery String pageToken, @RestQuery String direction, @RestQuery String startSeq,
            @RestQuery String startMessageId) {
        var list = TextParams.listTaskMessages(tenant(tenant), taskId, pageSize, pageToken, direction, startSeq, startMessageId);
        return calls.call(request, c -> port.listTaskMessages(c, list)).map(OperationsResource::json);
    }

    @GET
    @Path("{tenant:([^/]+/)?}extendedAgentCard")
    public Uni<byte[]> getExtendedAgentCard(RoutingContext request, @RestPath String tenant) {
        GetExtendedAgentCardRequest get = GetExtendedAgentCardRequest.newBuilder().setTenant(tenant(tenant)).build();
        return calls.call(request, c -> port.getExtendedAgentCard(c, get)).map(OperationsResource::json);
    }

    /** The path's "{tenant}/" prefix without its slash; "" when the route has none. */
    private static String tenant(String prefix) {
        return prefix == null || prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1);
    }

    private static String contentType(RoutingContext request) {
        return request.request().getHeader("Content-Type");
    }

    private static byte[] json(Message message) {
        try {
            return PRINTER.print(message).getBytes(StandardCharsets.UTF_8);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
    }
}
