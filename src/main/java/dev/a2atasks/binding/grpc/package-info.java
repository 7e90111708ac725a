/**
 * The gRPC binding of {@code lf.a2a.v1.A2AService} and of the history-paging extension's
 * {@code a2atasks.history.v1.TaskHistoryService}: the service adapters, the call helper they share
 * ({@code GrpcCalls}: admission, error mapping), the call guard
 * (service parameters, undecodable requests, metadata and message limits, grpc-message
 * encoding), the proto mapping of tasks and its error mapper. May use: protocol, task (params),
 * task.read (views), binding.http (the server's limits), error, time, validation, proto; nothing of
 * the other bindings.
 */
package dev.a2atasks.binding.grpc;
