/**
 * Work on tasks: SendMessage, SendStreamingMessage and CancelTask
 * ({@link dev.a2atasks.execution.MessageService}), the streams read from the task events
 * ({@link dev.a2atasks.execution.TaskStreams}, also SubscribeToTask, one close rule for both), the
 * runner that executes the application's {@link dev.a2atasks.agent.AgentExecutor} one run per
 * task at a time, each run fenced by its token, and turns its updates into store writes
 * ({@link dev.a2atasks.execution.AgentRunner}), the sweep of expired leases, and in-process
 * wake-ups for callers waiting on a task ({@link dev.a2atasks.execution.TaskSignals}, one
 * {@link dev.a2atasks.execution.TaskWatch} per waiter). May use: agent (the SPI), task (the
 * validator), task.read (reads), task.store (the writers), push (a registration sent with a
 * message), auth, db (outages, this replica's identity), jobs, metrics, error, proto; never a
 * binding.
 */
package dev.a2atasks.execution;
