/**
 * Everything a caller can be told: the one sealed {@link dev.a2atasks.error.A2AException}, the
 * {@link dev.a2atasks.error.ErrorKind} table (JSON-RPC code, gRPC status, HTTP status, ErrorInfo
 * reason and domain per kind), and the google.rpc details. May use: the JDK, protobuf and the
 * google.rpc messages; nothing of the service's other packages.
 */
package dev.a2atasks.error;
