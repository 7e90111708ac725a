/**
 * Per-caller rate limits: token buckets keyed by the caller's scope (tenant, subject) and the
 * class of request ({@link dev.a2atasks.ratelimit.RequestClass}), checked once at the port for
 * every binding. Kept in process memory, never in the database, so a database problem can never
 * turn into a refusal of everyone. Also the bound on the streams one caller holds open
 * ({@link dev.a2atasks.ratelimit.OpenStreams}), checked at the same place. {@link dev.a2atasks.ratelimit.TokenBucket} and
 * {@link dev.a2atasks.ratelimit.RateLimiter} are pure logic, tested without Quarkus. May use:
 * error, auth (Caller), metrics.
 */
package dev.a2atasks.ratelimit;
