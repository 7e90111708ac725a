package dev.a2atasks.binding.rest;

import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import dev.a2atasks.binding.json.MediaTypes;
import dev.a2atasks.binding.json.TaskJson;
import dev.a2atasks.task.GetTaskParams;
import dev.a2atasks.task.ListTasksParams;
import dev.a2atasks.task.TextParams;
import dev.a2atasks.protocol.A2AOperations;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * HTTP+JSON binding of ListTasks and GetTask (spec §11.3), plain and tenant-prefixed. Query
 * parameters arrive as text, are decoded by the shared {@link TextParams} and go to the port; unknown ones are ignored.
 */
@Path("/")
@Produces({ MediaTypes.A2A_JSON, MediaType.APPLICATION_JSON })
public class TasksResource {

    private final RestCalls calls;
    private final A2AOperations port;

    TasksResource(RestCalls calls, A2AOperations port) {
        this.calls = calls;
        this.port = port;
    }

    @GET
    @Path("tasks")
    public Uni<byte[]> listTasks(RoutingContext request, @RestQuery String contextId, @RestQuery String status, @RestQuery String pageSize,
            @RestQuery String pageToken, @RestQuery String historyLength, @RestQuery String statusTimestampAfter,
            @RestQuery String includeArtifacts) {
        return list(request, null, contextId, status, pageSize, pageToken, historyLength, statusTimestampAfter, includeArtifacts);
    }

    @GET
    @Path("{tenant}/tasks")
    public Uni<byte[]> listTenantTasks(RoutingContext request, @RestPath String tenant, @RestQuery String contextId, @RestQuery String status,
            @RestQuery String pageSize, @RestQuery String pageToken, @RestQuery String historyLength,
            @RestQuery String statusTimestampAfter, @RestQuery String includeArtifacts) {
        return list(request, tenant, contextId, status, pageSize, pageToken, historyLength, statusTimestampAfter, includeArtifacts);
    }

    @GET
    @Path("tasks/{id}")
    public Uni<byte[]> getTask(RoutingContext request, @RestPath String id, @RestQuery String historyLength) {
        return get(request, null, id, historyLength);
    }

    @GET
    @Path("{tenant}/tasks/{id}")
    public Uni<byte[]> getTenantTask(RoutingContext request, @RestPath String tenant, @RestPath String id, @RestQuery String historyLength) {
        return get(request, tenant, id, historyLength);
    }

    private Uni<byte[]> list(RoutingContext request, String tenant, String contextId, String status, String pageSize, String pageToken,
            String historyLength, String statusTimestampAfter, String includeArtifacts) {
        ListTasksParams params = TextParams.listTasks(tenant, contextId, status, pageSize, pageToken, historyLength,
                statusTimestampAfter, includeArtifacts);
        return calls.call(request, c -> port.listTasks(c, params)).map(TaskJson::page);
    }

    private Uni<byte[]> get(RoutingContext request, String tenant, String id, String historyLength) {
        GetTaskParams params = TextParams.getTask(tenant, id, historyLength);
        return calls.call(request, c -> port.getTask(c, params)).map(TaskJson::task);
    }
}
