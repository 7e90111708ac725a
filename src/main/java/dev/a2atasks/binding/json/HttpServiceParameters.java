package dev.a2atasks.binding.json;

import java.util.Optional;

import dev.a2atasks.protocol.Binding;
import dev.a2atasks.protocol.ProtocolVersion;
import dev.a2atasks.protocol.ServiceParameters;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * A2A service parameters on the HTTP bindings: each a header, or a query parameter of the same
 * name (spec §3.6.1). Read once per request by {@link HttpRefusals}' filter and kept on the
 * routing context for the resource that serves it.
 */
public final class HttpServiceParameters {

    public static final String EXTENSIONS = "A2A-Extensions";
    private static final String KEY = ServiceParameters.class.getName();

    private HttpServiceParameters() {
    }

    /** The parameters the filter recorded for this request. */
    public static ServiceParameters of(RoutingContext context) {
        ServiceParameters parameters = context.get(KEY);
        return parameters != null ? parameters : read(context.request());
    }

    static void record(RoutingContext context) {
        context.put(KEY, read(context.request()));
    }

    private static ServiceParameters read(HttpServerRequest request) {
        Binding binding = request.method() == HttpMethod.POST && "/".equals(request.path()) ? Binding.JSONRPC : Binding.HTTP_JSON;
        return new ServiceParameters(binding, parameter(request, ProtocolVersion.HEADER), parameter(request, EXTENSIONS), Optional.empty());
    }

    private static String parameter(HttpServerRequest request, String name) {
        String header = request.getHeader(name);
        return header != null ? header : request.getParam(name);
    }

    /**
     * The request's identity, still deferred (authentication runs when it is first asked for), as
     * the HTTP layer keeps it on the routing context: for router routes, which run outside the
     * request scope the REST layer reads it from.
     */
    public static Uni<SecurityIdentity> identity(RoutingContext context) {
        return context.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
    }
}
