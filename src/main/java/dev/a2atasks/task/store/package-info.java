/**
 * The write model: the Panache entities that map {@code tasks}, {@code messages} and
 * {@code artifacts}, and {@link dev.a2atasks.task.store.TaskStore}, the one writer. Every write
 * is a Panache operation in a transaction, taking the task row's lock before it touches a task's
 * messages, so sequence numbers never collide and no reader sees half an update. The JSON column
 * format (ProtoJSON) is defined here, once. May use: auth (Caller), error, time, metrics, the
 * generated proto classes; never the read model or a binding.
 */
package dev.a2atasks.task.store;
