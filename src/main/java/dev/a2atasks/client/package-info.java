/**
 * The Java client: a ListTasks walk over gRPC or HTTP+JSON that ends only on an empty token and
 * catches up on tasks that moved; with the history-paging extension, a transcript reader and a
 * transcript copy keyed by (task, message id); the declarations of this project's extensions. May
 * use: the generated proto classes, gRPC and the JDK only (ArchitectureUnitTest enforces it), so it
 * can ship without the server; Micrometer when it is present ({@code WalkMetrics}), never required.
 */
package dev.a2atasks.client;
