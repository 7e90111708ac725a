/**
 * Work on tasks: SendMessage, SendStreamingMessage and CancelTask
 * ({@link dev.a2atasks.execution.MessageService}), the streams read from the task events
 * ({@link dev.a2atasks.execution.TaskStreams}, also SubscribeToTask), the
 * runner that executes the application's {@link dev.a2atasks.agent.AgentExecutor} on worker
 * threads and turns its updates into store writes ({@link dev.a2atasks.execution.AgentRunner}),
 * and in-process wake-ups for callers waiting on a task ({@link dev.a2atasks.execution.TaskSignals}).
 * May use: agent (the SPI), task (validator, reads, the store), push (a registration sent with a
 * message), protocol (CallContext), auth,
 * error; never a binding.
 */
package dev.a2atasks.execution;
