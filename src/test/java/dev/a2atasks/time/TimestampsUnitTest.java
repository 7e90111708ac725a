package dev.a2atasks.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.google.protobuf.Timestamp;

/** The one timestamp conversion utility: precision and range rules, without Quarkus. */
class TimestampsUnitTest {

    @Test
    void microsecondsRoundTrip() {
        Instant at = Instant.parse("2026-07-01T12:00:00.123456Z");
        assertEquals(1_782_907_200_123_456L, Timestamps.micros(at));
        assertEquals(at, Timestamps.ofMicros(Timestamps.micros(at)));
        assertEquals(Instant.parse("1969-12-31T23:59:59.999999Z"), Timestamps.ofMicros(-1));
    }

    @Test
    void ceilingKeepsAtOrAfter() {
        assertEquals(Instant.parse("2026-01-01T00:00:00.000002Z"), Timestamps.ceilMicros(Instant.parse("2026-01-01T00:00:00.0000011Z")));
        assertEquals(Instant.parse("2026-01-01T00:00:00.000001Z"), Timestamps.ceilMicros(Instant.parse("2026-01-01T00:00:00.000001Z")));
    }

    @Test
    void textIsWrittenWithMillisecondsOrMicroseconds() {
        assertEquals("2026-01-31T12:00:00.000Z", Timestamps.rfc3339(Instant.parse("2026-01-31T12:00:00Z")));
        assertEquals("2026-01-31T12:00:00.120Z", Timestamps.rfc3339(Instant.parse("2026-01-31T12:00:00.12Z")));
        assertEquals("2026-01-31T12:00:00.123456Z", Timestamps.rfc3339(Instant.parse("2026-01-31T12:00:00.123456Z")));
    }

    @Test
    void onlyRfc3339WithAnOffsetInYearsOneToNineThousandNineHundredNinetyNine() {
        assertEquals(Optional.of(Instant.parse("2026-01-31T10:00:00Z")), Timestamps.parseRfc3339("2026-01-31T12:00:00+02:00"));
        for (String bad : new String[] { "2026-01-31T12:00:00", "yesterday", "2026-13-01T00:00:00Z", "10000-01-01T00:00:00Z",
                "+10000-01-01T00:00:00Z", "2026-01-01T00:00:00+25:00", "" }) {
            assertEquals(Optional.empty(), Timestamps.parseRfc3339(bad), bad);
        }
    }

    @Test
    void protoTimestampsOutsideTheirRangeAreNotInstants() {
        Instant at = Instant.parse("2026-07-01T12:00:00.123456789Z");
        assertEquals(Optional.of(at), Timestamps.fromProto(Timestamps.toProto(at)));
        assertTrue(Timestamps.fromProto(Timestamp.newBuilder().setSeconds(0).setNanos(-1).build()).isEmpty());
        assertTrue(Timestamps.fromProto(Timestamp.newBuilder().setSeconds(253402300800L).build()).isEmpty());
        assertTrue(Timestamps.fromProto(Timestamp.newBuilder().setSeconds(-62135596801L).build()).isEmpty());
    }
}
