/**
 * What the HTTP+JSON and JSON-RPC bindings share: ProtoJSON writers (tasks, error bodies) and
 * readers (request messages), the HTTP filter that records service parameters and checks URLs,
 * the refusals the HTTP layer makes before any binding runs, and the stall bound on streaming
 * responses (Server-Sent Events, and gRPC's server streams, which run on the same HTTP server
 * and are watched from its router). May use: protocol, task (text parameters), task.read (views),
 * binding.http (limits, the stall watch), error, time, validation, proto, Vert.x; not the gRPC
 * binding.
 */
package dev.a2atasks.binding.json;
