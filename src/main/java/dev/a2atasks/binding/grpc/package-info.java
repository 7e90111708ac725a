/**
 * The gRPC binding of {@code lf.a2a.v1.A2AService}: the service adapter, its call guard
 * (service parameters, undecodable requests, metadata and message limits, grpc-message
 * encoding), the proto mapping of tasks and its error mapper. May use: protocol, task (params
 * and views), error, proto; nothing of the other bindings.
 */
package dev.a2atasks.binding.grpc;
