/**
 * The A2A protocol as one port: {@link dev.a2atasks.protocol.A2AOperations} and its
 * {@link dev.a2atasks.protocol.RequestHandler}, the {@link dev.a2atasks.protocol.CallContext} of
 * an admitted call, admission (A2A-Version, then credentials), method names, and the
 * classification of any failure as an error a caller may be told. May use: auth, task, task.read
 * (the views it answers), execution, push (the operations behind the port), ratelimit, metrics, db
 * (outage classification), error, client (the URIs of the extensions it gates), proto; never a
 * binding.
 */
package dev.a2atasks.protocol;
