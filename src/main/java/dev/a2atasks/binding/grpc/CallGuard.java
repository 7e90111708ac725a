package dev.a2atasks.binding.grpc;

import dev.a2atasks.protocol.ProtocolVersion;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.quarkus.grpc.GlobalInterceptor;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * What every gRPC call of this service passes through, outermost:
 *
 * <ul>
 * <li>the {@code a2a-version} metadata is carried to the service method (spec §10.2);</li>
 * <li>a request whose bytes protobuf cannot decode (bad UTF-8 in a string, a truncated varint,
 * a length past the end, wire types 6/7, field number 0) reaches no method: the call is closed
 * with INVALID_ARGUMENT saying so, instead of the transport's "Half-closed without a request";</li>
 * <li>every status message leaves in the {@code grpc-message} encoding the gRPC protocol
 * defines ({@link GrpcMessageText}).</li>
 * </ul>
 */
@ApplicationScoped
@GlobalInterceptor
@Priority(Integer.MAX_VALUE) // outermost: it must see every close, including other interceptors'
public class CallGuard implements ServerInterceptor {

    private static final Metadata.Key<String> VERSION =
            Metadata.Key.of(ProtocolVersion.HEADER.toLowerCase(java.util.Locale.ROOT), Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> GRPC_MESSAGE = Metadata.Key.of("grpc-message", Metadata.ASCII_STRING_MARSHALLER);
    static final Context.Key<String> REQUESTED_VERSION = Context.key("a2a-version");

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        EncodedMessages<Q, R> encoded = new EncodedMessages<>(call);
        Context context = Context.current().withValue(REQUESTED_VERSION, headers.get(VERSION));
        ServerCall.Listener<Q> listener = Contexts.interceptCall(context, encoded, headers, next);
        return new DecodedOrRefused<>(listener, encoded);
    }

    /** Writes the status message into {@code grpc-message} itself, encoded as gRPC says. */
    private static final class EncodedMessages<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
        private volatile boolean closed;

        EncodedMessages(ServerCall<Q, R> delegate) {
            super(delegate);
        }

        @Override
        public void close(Status status, Metadata trailers) {
            if (closed) {
                return; // one close per call, whoever asks second
            }
            closed = true;
            if (status.getDescription() != null && !status.isOk()) {
                trailers.put(GRPC_MESSAGE, GrpcMessageText.encode(status.getDescription()));
                status = Status.fromCode(status.getCode()); // the transport would encode it again, its own way
            }
            super.close(status, trailers);
        }
    }

    /** Tells "the client sent bytes we could not decode" apart from every other way a call ends. */
    private static final class DecodedOrRefused<Q, R> extends ForwardingServerCallListener.SimpleForwardingServerCallListener<Q> {
        private final EncodedMessages<Q, R> call;
        private boolean received;

        DecodedOrRefused(ServerCall.Listener<Q> delegate, EncodedMessages<Q, R> call) {
            super(delegate);
            this.call = call;
        }

        @Override
        public void onMessage(Q message) {
            received = true;
            super.onMessage(message);
        }

        @Override
        public void onHalfClose() {
            if (!received && !call.closed) {
                // Every A2A method takes exactly one request message: none arriving before the
                // client's half-close means the transport dropped one it could not parse.
                String type = call.getMethodDescriptor().getRequestMarshaller() instanceof io.grpc.MethodDescriptor.ReflectableMarshaller<?> m
                        ? m.getMessageClass().getSimpleName() : "request";
                call.close(Status.INVALID_ARGUMENT.withDescription("The request could not be decoded as a " + type
                        + " message (malformed protobuf, or a string field that is not valid UTF-8)"), new Metadata());
                return;
            }
            super.onHalfClose();
        }
    }
}
