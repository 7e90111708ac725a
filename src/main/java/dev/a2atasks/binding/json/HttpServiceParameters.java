package dev.a2atasks.binding.json;

import dev.a2atasks.protocol.ProtocolVersion;
import io.vertx.core.http.HttpServerRequest;

/** A2A service parameters on the HTTP bindings: a header, or a query parameter of the same name (spec §3.6.1). */
public final class HttpServiceParameters {

    private HttpServiceParameters() {
    }

    public static String version(HttpServerRequest request) {
        String header = request.getHeader(ProtocolVersion.HEADER);
        return header != null ? header : request.getParam(ProtocolVersion.HEADER);
    }
}
