package dev.a2atasks.ratelimit;

/**
 * The classes of A2A requests that have a limit each. ListTasks is split by its page token: a
 * client restarting walks in a tight loop spends {@link #WALK_START}, while the pages of a walk in
 * progress spend {@link #PAGE}, so the loop is slowed and a long walk is not.
 */
public enum RequestClass {
    /** ListTasks without a pageToken: the first page of a walk (and every dashboard poll). */
    WALK_START("walk-start"),
    /** ListTasks with a pageToken, and ListTaskMessages with one: the next page of a walk in progress. */
    PAGE("page"),
    /** GetTask, and the first page of a ListTaskMessages walk (a window of one task). */
    GET("get"),
    /** SendMessage, SendStreamingMessage, CancelTask, creating and deleting push configs. */
    WRITE("write"),
    /** SubscribeToTask, reading push configs, the extended Agent Card. */
    OTHER("other");

    private final String key;

    RequestClass(String key) {
        this.key = key;
    }

    /** The name in configuration keys, metrics and error metadata. */
    public String key() {
        return key;
    }
}
