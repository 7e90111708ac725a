package dev.a2atasks.protocol;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import org.jboss.logging.MDC;

/**
 * The request id every log line of a request carries (MDC key {@value #MDC_KEY}, a field of the
 * JSON log). A caller's own {@code X-Request-Id} (HTTP) or {@code x-request-id} (gRPC metadata)
 * is kept when it is a plain token, so its logs and ours join; anything else, or none, gets a
 * fresh id. Never refused: an id is for correlation, not an input the service acts on.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private RequestIds() {
    }

    /** The id for a request that brought this header value (or null), put in the MDC. */
    public static String begin(String header) {
        String id = header != null && PLAIN.matcher(header).matches() ? header : fresh();
        MDC.put(MDC_KEY, id);
        return id;
    }

    /**
     * A random (version 4) UUID from the thread's own generator. Not {@link UUID#randomUUID()}: its
     * SecureRandom is one lock shared by every event loop, taken on every request, and an id that
     * only correlates log lines needs uniqueness (122 random bits), not unpredictability.
     */
    static String fresh() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
        long low = random.nextLong() & ~(0x3L << 62) | (0x2L << 62); // IETF variant
        return new UUID(high, low).toString();
    }
}
