package dev.a2atasks.agent;

/**
 * The agent: what the application plugs in to do the work behind SendMessage. Implement it as a
 * CDI bean ({@code @ApplicationScoped}) and it replaces the built-in {@link DemoAgent}.
 *
 * <p>{@link #execute} runs on a worker thread of its own (blocking calls, e.g. to a model, are
 * fine) once per user message: for a new task and for each message that continues one. It
 * reports through the {@link TaskUpdater}, whose every call is committed to PostgreSQL before it
 * returns; it never touches SQL. If it returns without a final state the task is marked FAILED;
 * if it throws, FAILED with a generic message (the exception is logged, never shown to callers).
 */
public interface AgentExecutor {

    void execute(AgentRequest request, TaskUpdater task) throws Exception;

    /**
     * Called, on another thread, when a client cancels the task while {@link #execute} runs in
     * this process: stop the work. The task is already CANCELED; updates after it are refused.
     */
    default void cancel(AgentRequest request) {
    }

    /** Media types this agent produces; SendMessage refuses clients that accept none of them. */
    default java.util.List<String> outputModes() {
        return java.util.List.of("text/plain");
    }
}
