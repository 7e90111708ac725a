package dev.a2atasks.ratelimit;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * How many streams (SendStreamingMessage, SubscribeToTask) one caller holds open in this process,
 * at most {@code a2a.rate-limit.max-open-streams}: each costs a connection's buffers and a
 * waiter, so one caller opening thousands cannot take them from everyone else. A stream beyond
 * the bound is refused like a rate limit (429 / RESOURCE_EXHAUSTED, limit {@code open-streams},
 * retry after a second); the streams already open go on. Independent of the rate limits' switch:
 * this bounds memory, not request rates. 0 leaves it unbounded.
 */
@ApplicationScoped
public class OpenStreams {

    /** The limit's name in the refusal and the metric. */
    public static final String LIMIT = "open-streams";

    private final int max;
    private final ConcurrentHashMap<Caller, Integer> open = new ConcurrentHashMap<>();

    @jakarta.inject.Inject
    OpenStreams(RateLimitConfig config) {
        this(config.maxOpenStreams());
    }

    OpenStreams(int max) {
        this.max = max;
    }

    /** One open stream of a caller; {@link #close()} gives its place back (once, however often called). */
    public final class Slot implements AutoCloseable {
        private final Caller caller;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Slot(Caller caller) {
            this.caller = caller;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                open.computeIfPresent(caller, (c, n) -> n <= 1 ? null : n - 1); // no entry left behind for a caller gone
            }
        }
    }

    /** A place for one more stream of this caller, or RateLimited when it holds the most already. */
    public Slot open(Caller caller) {
        if (max > 0) {
            boolean[] refused = { false };
            open.compute(caller, (c, n) -> {
                int now = n == null ? 0 : n;
                if (now >= max) {
                    refused[0] = true;
                    return n;
                }
                return now + 1;
            });
            if (refused[0]) {
                throw new A2AException.RateLimited(LIMIT, Duration.ofSeconds(1));
            }
        }
        return new Slot(caller);
    }

    /** Streams this caller holds open now (for tests and operators). */
    public int openBy(Caller caller) {
        return open.getOrDefault(caller, 0);
    }
}
