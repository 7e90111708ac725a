package dev.a2atasks.client;

import java.time.Duration;

/**
 * What one {@link TaskWalker#listAll} cost. Rising catch-up rows mean tasks move while callers
 * page (or mirrors lag); rising token errors mean the page-token lifetime is too short.
 *
 * @param pages         pages fetched, catch-up included
 * @param rows          tasks received by the main walk
 * @param catchUpRows   tasks received by catch-up passes
 * @param catchUpRounds catch-up passes run
 * @param tokenErrors   page-token refusals that restarted a walk
 */
public record WalkStats(int pages, int rows, int catchUpRows, int catchUpRounds, int tokenErrors, Duration duration) {

    @Override
    public String toString() {
        return "pages=" + pages + " rows=" + rows + " catchUpRows=" + catchUpRows + " catchUpRounds=" + catchUpRounds
                + " tokenErrors=" + tokenErrors + " durationMs=" + duration.toMillis();
    }
}
