/**
 * What the HTTP+JSON and JSON-RPC bindings share: ProtoJSON writers (tasks, error bodies) and
 * readers (request messages), the HTTP filter that records service parameters and checks URLs,
 * and the refusals the HTTP layer makes before any binding runs. May use: protocol, error,
 * task views, validation, Vert.x; not the gRPC binding.
 */
package dev.a2atasks.binding.json;
