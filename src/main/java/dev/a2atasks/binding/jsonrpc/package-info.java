/**
 * The JSON-RPC 2.0 binding (spec §9) at {@code POST /}: the envelope, one dispatch table from
 * method to port call, and the mapping of errors to JSON-RPC error objects. May use: binding.json,
 * binding.http (limits), protocol, task (params), error, proto; not the other bindings.
 */
package dev.a2atasks.binding.jsonrpc;
