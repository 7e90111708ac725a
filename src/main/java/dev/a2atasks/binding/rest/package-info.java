/**
 * The HTTP+JSON binding (spec §11): one route per operation and form (plain and tenant-prefixed),
 * each calling the port once, and its error mapper. May use: binding.json, binding.http (limits),
 * protocol, task (params), error, proto, and mirror and auth (for the operator's on-demand
 * reconciliation route only); not the other bindings.
 */
package dev.a2atasks.binding.rest;
