/**
 * The write model: the Panache entities that map {@code tasks}, {@code messages},
 * {@code artifacts}, {@code task_events} and the webhook tables ({@code push_configs},
 * {@code push_outbox}), {@link dev.a2atasks.task.store.TaskStore}, the one writer of tasks, and
 * {@link dev.a2atasks.task.store.PushStore}, which writes registrations under the task's lock and
 * turns each task event into the outbox rows it owes, in the event's transaction. Every write
 * is a Panache operation in a transaction, taking the task row's lock before it touches a task's
 * messages, so sequence numbers never collide and no reader sees half an update. The JSON column
 * format (ProtoJSON) is defined here, once. May use: auth (Caller), error, time, metrics, the
 * generated proto classes; never the read model or a binding.
 */
package dev.a2atasks.task.store;
