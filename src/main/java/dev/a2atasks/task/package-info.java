/**
 * Tasks as the service serves them: ListTasks and GetTask ({@link dev.a2atasks.task.TaskQueryService}),
 * their typed parameters, the text decoder the JSON bindings share ({@link dev.a2atasks.task.TextParams})
 * and the one validator. Reads go to {@link dev.a2atasks.task.read}, writes to
 * {@link dev.a2atasks.task.store}. May use: auth (Caller), paging, validation, error, time, metrics; never
 * a binding.
 */
package dev.a2atasks.task;
