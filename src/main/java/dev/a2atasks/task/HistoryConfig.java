package dev.a2atasks.task;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How much history a response carries when the caller does not say (historyLength unset), and
 * the most it ever carries.
 */
@ConfigMapping(prefix = "a2a.history")
public interface HistoryConfig {

    /** ListTasks without historyLength: listings need status, not transcripts. */
    @WithDefault("0")
    int defaultListLength();

    /** GetTask without historyLength: the recent turns a viewer shows first. */
    @WithDefault("20")
    int defaultGetLength();

    /** Upper bound on the messages of one task in any response; larger requests are trimmed to it. */
    @WithDefault("100")
    int maxLength();
}
