/**
 * Tasks: the read service (ListTasks, GetTask) with its validator and SQL read model, and the
 * write path ({@link dev.a2atasks.task.TaskStore}, the Panache entities; every write goes through
 * them). Every statement is scoped to the caller. May use: auth (Caller), paging, history,
 * validation, error; never a binding.
 */
package dev.a2atasks.task;
