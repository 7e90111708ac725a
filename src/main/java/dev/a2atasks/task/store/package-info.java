/**
 * The write model: the Panache entities that map {@code tasks}, {@code messages},
 * {@code artifacts} and {@code task_events}, and their writers, one per job:
 * {@link dev.a2atasks.task.store.TaskStore}, the writes a caller asks for (a user's message,
 * cancel, a seed); {@link dev.a2atasks.task.store.RunWrites}, the agent's runs (started with a
 * fencing token and a lease, their updates, the sweep of expired leases);
 * {@link dev.a2atasks.task.store.RunLeases}, the renewal of this process's runs;
 * {@link dev.a2atasks.task.store.TaskEventLog}, the event every change records, announced at
 * commit; {@link dev.a2atasks.task.store.MirrorCopies}, a mirror's copies, each source writing only
 * its own. {@link dev.a2atasks.task.store.TaskRows} holds the row steps they share. Two seams let
 * the push package write in the same transactions without the store depending on it: an event's
 * outbox rows ({@link dev.a2atasks.task.store.EventOutbox}) and a registration sent with a message
 * ({@link dev.a2atasks.task.store.LockedTaskWrite}).
 * Every change of a task takes the task row's lock before it touches the task's messages,
 * artifacts or registrations, so sequence numbers never collide and no reader sees half an
 * update. Writes are Panache operations in a transaction, except the few statements the README's
 * persistence table lists (an artifact chunk, the lease renewal), each pinned by a plan test.
 * The JSON column format (ProtoJSON) is defined here, once. May use: auth (Caller), error, time,
 * metrics, db (its pooled statements), the generated proto classes; never the read model or a binding.
 */
package dev.a2atasks.task.store;
