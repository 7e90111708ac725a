package dev.a2atasks.agent;

/**
 * The agent: what the application plugs in to do the work behind SendMessage. Implement it as a
 * CDI bean ({@code @ApplicationScoped}) and it replaces the built-in {@link DemoAgent}.
 *
 * <p>{@link #execute} runs on a worker thread of its own (blocking calls, e.g. to a model, are
 * fine) once per user message: for a new task and for each message that continues one, and never
 * twice at once for one task, on any replica. A message that arrives while a run is going is
 * queued: it gets its own run when the current one ends its turn waiting for input (an
 * interrupted state), and stays unanswered in the history if the run ends the task instead. It
 * reports through the {@link TaskUpdater}, whose every call is committed to PostgreSQL before it
 * returns; it never touches SQL. A turn ends with a terminal or interrupted state: updates after
 * it are refused. If it returns without one the task is marked FAILED; if it throws, FAILED with
 * a generic message (the exception is logged, never shown to callers).
 */
public interface AgentExecutor {

    void execute(AgentRequest request, TaskUpdater task) throws Exception;

    /**
     * Called, on another thread, when the run stops owning its task while {@link #execute} runs
     * in this process: a client canceled the task (called at once when the cancel reached this
     * replica, else at the run's next lease renewal), or another run took it over after this
     * one's lease expired. Stop the work: updates are refused from now on.
     */
    default void cancel(AgentRequest request) {
    }

    /** Media types this agent produces; SendMessage refuses clients that accept none of them. */
    default java.util.List<String> outputModes() {
        return java.util.List.of("text/plain");
    }
}
