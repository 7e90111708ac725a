package dev.a2atasks.binding.grpc;

import dev.a2atasks.protocol.ProtocolVersion;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.quarkus.grpc.GlobalInterceptor;
import jakarta.enterprise.context.ApplicationScoped;

/** Carries the {@code a2a-version} metadata of a gRPC call to the service method (spec §10.2). */
@ApplicationScoped
@GlobalInterceptor
public class VersionMetadata implements ServerInterceptor {

    private static final Metadata.Key<String> HEADER =
            Metadata.Key.of(ProtocolVersion.HEADER.toLowerCase(java.util.Locale.ROOT), Metadata.ASCII_STRING_MARSHALLER);
    static final Context.Key<String> REQUESTED = Context.key("a2a-version");

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        return Contexts.interceptCall(Context.current().withValue(REQUESTED, headers.get(HEADER)), call, headers, next);
    }
}
