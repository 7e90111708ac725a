package dev.a2atasks.binding.rest;

import dev.a2atasks.auth.CallerResolver;
import dev.a2atasks.binding.json.MediaTypes;
import dev.a2atasks.error.A2AException;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

/**
 * The HTTP+JSON routes of A2A operations this service does not implement yet (spec §11.3). Each
 * authenticates the caller and answers UnsupportedOperation, so a client learns what is missing
 * instead of meeting a bare 404. Tenant-prefixed forms are matched with a leading {tenant}.
 */
@Path("/")
@Produces(MediaTypes.A2A_JSON)
public class UnsupportedOperationsResource {

    private final CallerResolver callers;

    UnsupportedOperationsResource(CallerResolver callers) {
        this.callers = callers;
    }

    @POST
    @Path("{tenant:([^/]+/)?}message:send")
    public Uni<Response> sendMessage() {
        return unsupported("SendMessage");
    }

    @POST
    @Path("{tenant:([^/]+/)?}message:stream")
    public Uni<Response> sendStreamingMessage() {
        return unsupported("SendStreamingMessage");
    }

    @POST
    @Path("{tenant:([^/]+/)?}tasks/{id}:cancel")
    public Uni<Response> cancelTask() {
        return unsupported("CancelTask");
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{id}:subscribe")
    public Uni<Response> subscribeToTask() {
        return unsupported("SubscribeToTask");
    }

    @POST
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs")
    public Uni<Response> createTaskPushNotificationConfig() {
        return unsupported("CreateTaskPushNotificationConfig");
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs/{id}")
    public Uni<Response> getTaskPushNotificationConfig() {
        return unsupported("GetTaskPushNotificationConfig");
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs")
    public Uni<Response> listTaskPushNotificationConfigs() {
        return unsupported("ListTaskPushNotificationConfigs");
    }

    @DELETE
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs/{id}")
    public Uni<Response> deleteTaskPushNotificationConfig() {
        return unsupported("DeleteTaskPushNotificationConfig");
    }

    @GET
    @Path("{tenant:([^/]+/)?}extendedAgentCard")
    public Uni<Response> getExtendedAgentCard() {
        return unsupported("GetExtendedAgentCard");
    }

    private Uni<Response> unsupported(String method) {
        return callers.current().chain(caller -> Uni.createFrom().failure(new A2AException.UnsupportedOperation(method)));
    }
}
