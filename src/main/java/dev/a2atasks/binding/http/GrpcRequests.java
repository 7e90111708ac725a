package dev.a2atasks.binding.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/** Tells a gRPC call from an HTTP request on the one server: the HTTP filters leave gRPC calls to the gRPC binding. */
public final class GrpcRequests {

    private GrpcRequests() {
    }

    public static boolean isGrpc(HttpServerRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        return type != null && type.startsWith("application/grpc");
    }
}
