package dev.a2atasks.time;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import com.google.protobuf.Timestamp;

/**
 * The one place an instant changes form: the store's microseconds, PostgreSQL's
 * {@code timestamptz}, the proto {@code Timestamp}, and RFC 3339 text (ProtoJSON). Every rule
 * about precision and range is here: the store keeps microseconds, text is written with
 * milliseconds or, when the instant has them, microseconds, and only years 1–9999 exist.
 */
public final class Timestamps {

    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    /** Microseconds since the epoch: the store's precision, and the page cursor's. */
    public static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    public static Instant ofMicros(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    /** The smallest whole microsecond at or after the instant, so that "at or after" keeps its meaning in the store. */
    public static Instant ceilMicros(Instant instant) {
        Instant micros = instant.truncatedTo(ChronoUnit.MICROS);
        return micros.equals(instant) ? instant : micros.plus(1, ChronoUnit.MICROS);
    }

    /** The value PostgreSQL's timestamptz columns are bound with. */
    public static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    public static Timestamp toProto(Instant instant) {
        return Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
    }

    /** The instant of a proto Timestamp, or empty when it is not a valid one (years 1–9999, nanos 0–999,999,999). */
    public static Optional<Instant> fromProto(Timestamp timestamp) {
        return com.google.protobuf.util.Timestamps.isValid(timestamp)
                ? Optional.of(Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos()))
                : Optional.empty();
    }

    /** RFC 3339 in UTC, as responses carry it: milliseconds, or microseconds when the instant has them. */
    public static String rfc3339(Instant instant) {
        return (instant.getNano() % 1_000_000 == 0 ? MILLIS : MICROS).format(instant);
    }

    /** RFC 3339 text with an offset, in years 1–9999, or empty when the text is not one. */
    public static Optional<Instant> parseRfc3339(String text) {
        try {
            OffsetDateTime parsed = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
            return parsed.getYear() < 1 || parsed.getYear() > 9999 ? Optional.empty() : Optional.of(parsed.toInstant());
        } catch (DateTimeException e) { // a parse error, or a valid form naming no instant
            return Optional.empty();
        }
    }
}
