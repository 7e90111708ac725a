/**
 * Background work on a timer: {@link dev.a2atasks.jobs.PeriodicJob}, the one way this service
 * runs a pass every so often (the lease sweep and renewal, the secret re-seal, the rate-limit
 * sweep, a mirror's lease). May use: the JDK and JBoss Logging only, so any package may use it.
 */
package dev.a2atasks.jobs;
