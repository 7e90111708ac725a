/**
 * Tasks as the service serves them: ListTasks, GetTask and ListTaskMessages, the history-paging
 * extension ({@link dev.a2atasks.task.TaskQueryService}),
 * their typed parameters, the text decoder the JSON bindings share ({@link dev.a2atasks.task.TextParams})
 * and the one validator. Reads go to {@link dev.a2atasks.task.read}, writes to
 * {@link dev.a2atasks.task.store}. May use: task.read, task.store, auth (Caller), paging,
 * validation, error, time, metrics, proto (the A2A and history-paging messages); never a binding.
 */
package dev.a2atasks.task;
