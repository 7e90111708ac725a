package dev.a2atasks.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.a2atasks.auth.Caller;
import dev.a2atasks.error.A2AException;

class OpenStreamsUnitTest {

    private final Caller alice = new Caller("t", "alice");
    private final Caller bob = new Caller("t", "bob");

    @Test
    void aCallerHoldsAtMostTheBoundAndAClosedSlotIsGivenBackOnce() {
        OpenStreams streams = new OpenStreams(2);
        OpenStreams.Slot first = streams.open(alice);
        streams.open(alice);
        A2AException refused = assertThrows(A2AException.RateLimited.class, () -> streams.open(alice));
        assertEquals(1000, refused.retryAfter().orElseThrow().toMillis());
        streams.open(bob); // another caller's count is its own
        first.close();
        first.close(); // once, however often
        assertEquals(1, streams.openBy(alice));
        streams.open(alice);
        assertEquals(2, streams.openBy(alice));
    }

    @Test
    void zeroLeavesItUnboundedAndNothingIsKeptForACallerWithNoStream() {
        OpenStreams unbounded = new OpenStreams(0);
        for (int i = 0; i < 1000; i++) {
            unbounded.open(alice);
        }
        OpenStreams streams = new OpenStreams(5);
        streams.open(bob).close();
        assertEquals(0, streams.openBy(bob));
    }
}
