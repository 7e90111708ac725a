package dev.a2atasks.binding.rest;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jboss.resteasy.reactive.RestPath;

import dev.a2atasks.auth.CallerResolver;
import dev.a2atasks.error.A2AException;
import dev.a2atasks.mirror.Mirror;
import dev.a2atasks.mirror.MirrorJob;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * On-demand reconciliation of a configured mirror (docs/client.md, "Mirror"): {@code POST
 * /mirrors/{name}:reconcile}. Only the mirror's local owner (the tenant and subject its copies are
 * stored under) may ask; for anyone else, as for a name that does not run here, the answer is the
 * same invalid-params error, so mirror names cannot be probed.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class MirrorsResource {

    private final CallerResolver callers;
    private final MirrorJob mirrors;

    MirrorsResource(CallerResolver callers, MirrorJob mirrors) {
        this.callers = callers;
        this.mirrors = mirrors;
    }

    @POST
    @Path("mirrors/{name}:reconcile")
    public Uni<Map<String, Object>> reconcile(@RestPath String name) {
        // An operator's call, not an A2A one: a bearer token is needed, the A2A-Version header is not.
        return callers.current().chain(caller -> {
            boolean owner = mirrors.source(name).filter(s -> s.localOwner().equals(caller)).isPresent();
            if (!owner) {
                return Uni.createFrom().failure(A2AException.invalidParam("name", "no mirror of this name stores its copies"
                        + " under the caller"));
            }
            // A whole walk of the source: blocking work, on a worker thread.
            // Empty: another replica is syncing this source right now; the caller may retry shortly.
            return Uni.createFrom().item(() -> mirrors.reconcileNow(name).map(MirrorsResource::json)
                    .orElseThrow(() -> new A2AException.Unavailable(java.time.Duration.ofSeconds(5), "another replica is syncing mirror "
                            + name)))
                    .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        });
    }

    private static Map<String, Object> json(Mirror.SyncResult result) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("read", result.read());
        json.put("created", result.created());
        json.put("updated", result.updated());
        json.put("unchanged", result.unchanged());
        json.put("messagesAdded", result.messagesAdded());
        json.put("gaps", result.gaps());
        json.put("retired", result.retired());
        json.put("mark", String.valueOf(result.toMark()));
        json.put("durationMs", result.duration().toMillis());
        return json;
    }
}
