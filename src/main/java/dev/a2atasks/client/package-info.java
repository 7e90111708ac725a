/**
 * The Java client: a ListTasks walk over gRPC or HTTP+JSON that ends only on an empty token and
 * catches up on tasks that moved. May use: the generated proto classes, gRPC and the JDK only
 * (ClientIndependenceTest enforces it), so it can ship without the server; Micrometer when it
 * is present ({@code WalkMetrics}), never required.
 */
package dev.a2atasks.client;
