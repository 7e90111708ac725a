package dev.a2atasks.binding.grpc;

import dev.a2atasks.binding.http.HttpLimitsConfig;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.a2atasks.protocol.Binding;
import dev.a2atasks.protocol.ProtocolVersion;
import dev.a2atasks.protocol.RequestIds;
import dev.a2atasks.protocol.ServiceParameters;
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
 * <li>the A2A service parameters ({@code a2a-version}, {@code a2a-extensions}) and the deadline are
 * read once and carried to the service method (spec §10.2);</li>
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
    private static final Metadata.Key<String> EXTENSIONS = Metadata.Key.of("a2a-extensions", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> REQUEST_ID = Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> GRPC_MESSAGE = Metadata.Key.of("grpc-message", Metadata.ASCII_STRING_MARSHALLER);
    /** The call's A2A service parameters, read once here for the service method (spec §10.2). */
    static final Context.Key<ServiceParameters> PARAMETERS = Context.key("a2a-service-parameters");

    private final HttpLimitsConfig limits;

    CallGuard(HttpLimitsConfig limits) {
        this.limits = limits;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        EncodedMessages<Q, R> encoded = new EncodedMessages<>(call);
        if (size(headers) > limits.maxHeaderBytes()) {
            // The same limit as HTTP's header block, answered as a status rather than a reset stream.
            encoded.close(Status.INVALID_ARGUMENT.withDescription("The request metadata is larger than this service accepts ("
                    + limits.maxHeaderBytes() + " bytes)"), new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
        // The id of this call in the log context; the HTTP filter may have set one already (gRPC runs
        // on the same server), the metadata's own wins since it is what the caller will search for.
        String requestId = headers.get(REQUEST_ID);
        if (requestId != null) {
            RequestIds.begin(requestId);
        }
        Context current = Context.current();
        Optional<Instant> deadline = Optional.ofNullable(current.getDeadline())
                .map(d -> Instant.now().plusNanos(d.timeRemaining(TimeUnit.NANOSECONDS)));
        String extensions = headers.getAll(EXTENSIONS) == null ? null : String.join(",", headers.getAll(EXTENSIONS));
        Context context = current.withValue(PARAMETERS, new ServiceParameters(Binding.GRPC, headers.get(VERSION), extensions, deadline));
        ServerCall.Listener<Q> listener = Contexts.interceptCall(context, encoded, headers, next);
        return new DecodedOrRefused<>(listener, encoded, limits.maxGrpcMessageBytes());
    }

    /** Names and values as they travel (binary values base64-encoded, as on the wire), roughly what HTTP/2 counts. */
    private static long size(Metadata headers) {
        long size = 0;
        for (String key : headers.keys()) {
            Metadata.Key<?> typed = key.endsWith(Metadata.BINARY_HEADER_SUFFIX)
                    ? Metadata.Key.of(key, Metadata.BINARY_BYTE_MARSHALLER) : Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER);
            for (Object value : headers.getAll(typed)) {
                size += key.length() + 32 + (value instanceof byte[] b ? (b.length + 2) / 3 * 4 : value.toString().length());
            }
        }
        return size;
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
        private final int maxBytes;
        private boolean received;

        DecodedOrRefused(ServerCall.Listener<Q> delegate, EncodedMessages<Q, R> call, int maxBytes) {
            super(delegate);
            this.call = call;
            this.maxBytes = maxBytes;
        }

        @Override
        public void onMessage(Q message) {
            received = true;
            // The transport's own limit sits above this one (quarkus.grpc.server.max-inbound-message-size)
            // because its refusal carries no message; this one says what happened.
            if (message instanceof com.google.protobuf.MessageLite proto && proto.getSerializedSize() > maxBytes) {
                call.close(Status.RESOURCE_EXHAUSTED.withDescription("The request message is larger than this service accepts ("
                        + maxBytes + " bytes)"), new Metadata());
                return;
            }
            super.onMessage(message);
        }

        @Override
        public void onHalfClose() {
            if (call.closed) {
                return; // refused above; the method never ran
            }
            if (!received) {
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
