/**
 * Per-caller rate limits: token buckets keyed by the caller's scope (tenant, subject) and the class
 * of request ({@link dev.a2atasks.ratelimit.RequestClass}), checked once at the port for every
 * binding. Kept in process memory by default; with {@code a2a.rate-limit.shared} the buckets live
 * in PostgreSQL ({@link dev.a2atasks.ratelimit.SharedBuckets}), leased in batches, and a replica
 * that cannot reach them applies its own limits meanwhile, never refusing everyone. Also the bound
 * on the streams one caller holds open ({@link dev.a2atasks.ratelimit.OpenStreams}), checked at the
 * same place. {@link dev.a2atasks.ratelimit.TokenBucket} and {@link
 * dev.a2atasks.ratelimit.RateLimiter} are pure logic, tested without Quarkus. May use: error, auth
 * (Caller), db (the shared buckets' outages), jobs.
 */
package dev.a2atasks.ratelimit;
