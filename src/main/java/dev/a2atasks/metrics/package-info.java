/**
 * What the service tells Prometheus ({@code /q/metrics}): one bean,
 * {@link dev.a2atasks.metrics.ServiceMetrics}, owns every meter name and label, so the metrics list of docs/operations.md
 * and the code cannot drift apart. Labels take only values from closed sets (binding,
 * operation, outcome, reason, request class, task state, mirror source name from configuration):
 * never a caller, a tenant or a task id. May use: error, ratelimit (RequestClass), paging (refusal
 * reasons).
 */
package dev.a2atasks.metrics;
