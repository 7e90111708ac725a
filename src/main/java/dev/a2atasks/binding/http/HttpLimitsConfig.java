package dev.a2atasks.binding.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Request limits that are answered in the binding's own error shape: HTTP 414/431 with an A2A
 * error body, gRPC INVALID_ARGUMENT / RESOURCE_EXHAUSTED with a message. Keep each below the
 * transport's own limit ({@code quarkus.http.limits.max-initial-line-length}, {@code
 * quarkus.http.limits.max-header-size}, {@code quarkus.grpc.server.max-inbound-message-size}):
 * what the transport refuses gets an empty answer.
 */
@ConfigMapping(prefix = "a2a.http.limits")
public interface HttpLimitsConfig {

    /** Longest request target (path and query) served. */
    @WithDefault("16384")
    int maxRequestLineChars();

    /** Largest header block (HTTP) or metadata (gRPC) served, in bytes (names, values and separators). */
    @WithDefault("16384")
    int maxHeaderBytes();

    /** Largest gRPC request message served, in bytes. */
    @WithDefault("4194304")
    int maxGrpcMessageBytes();

    /**
     * Longest a streaming client may leave what was written to it unread (the response's write
     * queue full) before its stream is cut off and its buffers freed: a Server-Sent Events
     * connection is closed, a gRPC server stream (or an SSE stream over HTTP/2) is reset with
     * ENHANCE_YOUR_CALM, which gRPC clients report as RESOURCE_EXHAUSTED. Events are durable;
     * the client resubscribes and goes on.
     */
    @WithDefault("30s")
    java.time.Duration maxStreamStall();

    /**
     * The kernel send buffer of a Server-Sent Events connection, in bytes (SO_SNDBUF, fixed when
     * the stream begins). Left to the kernel, it grows to megabytes per connection (Linux:
     * {@code net.ipv4.tcp_wmem}), holding what a client that never reads was sent where the
     * stall bound cannot see it; fixed, the rest waits in the service's write queue, where the
     * stall bound sees it and cuts the client off. Large enough for a stream's throughput on
     * ordinary links (events are small; a 256 KiB window carries 2.5 MB/s at 100 ms round trip).
     */
    @WithDefault("262144")
    int streamSendBufferBytes();
}
