package dev.a2atasks.binding.rest;

import dev.a2atasks.binding.json.HttpServiceParameters;
import dev.a2atasks.protocol.A2AMethod;
import dev.a2atasks.protocol.Admission;
import io.vertx.core.http.HttpServerRequest;
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

    private final Admission admission;

    UnsupportedOperationsResource(Admission admission) {
        this.admission = admission;
    }

    @POST
    @Path("{tenant:([^/]+/)?}message:send")
    public Uni<Response> sendMessage(HttpServerRequest request) {
        return unsupported(request, A2AMethod.SEND_MESSAGE);
    }

    @POST
    @Path("{tenant:([^/]+/)?}message:stream")
    public Uni<Response> sendStreamingMessage(HttpServerRequest request) {
        return unsupported(request, A2AMethod.SEND_STREAMING_MESSAGE);
    }

    @POST
    @Path("{tenant:([^/]+/)?}tasks/{id}:cancel")
    public Uni<Response> cancelTask(HttpServerRequest request) {
        return unsupported(request, A2AMethod.CANCEL_TASK);
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{id}:subscribe")
    public Uni<Response> subscribeToTask(HttpServerRequest request) {
        return unsupported(request, A2AMethod.SUBSCRIBE_TO_TASK);
    }

    @POST
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs")
    public Uni<Response> createTaskPushNotificationConfig(HttpServerRequest request) {
        return unsupported(request, A2AMethod.CREATE_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs/{id}")
    public Uni<Response> getTaskPushNotificationConfig(HttpServerRequest request) {
        return unsupported(request, A2AMethod.GET_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @GET
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs")
    public Uni<Response> listTaskPushNotificationConfigs(HttpServerRequest request) {
        return unsupported(request, A2AMethod.LIST_TASK_PUSH_NOTIFICATION_CONFIGS);
    }

    @DELETE
    @Path("{tenant:([^/]+/)?}tasks/{taskId}/pushNotificationConfigs/{id}")
    public Uni<Response> deleteTaskPushNotificationConfig(HttpServerRequest request) {
        return unsupported(request, A2AMethod.DELETE_TASK_PUSH_NOTIFICATION_CONFIG);
    }

    @GET
    @Path("{tenant:([^/]+/)?}extendedAgentCard")
    public Uni<Response> getExtendedAgentCard(HttpServerRequest request) {
        return unsupported(request, A2AMethod.GET_EXTENDED_AGENT_CARD);
    }

    private Uni<Response> unsupported(HttpServerRequest request, A2AMethod method) {
        return admission.admit(HttpServiceParameters.version(request))
                .chain(caller -> Uni.createFrom().failure(new A2AException.UnsupportedOperation(method.wireName())));
    }
}
