package dev.a2atasks.protocol;

import java.util.UUID;
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
        String id = header != null && PLAIN.matcher(header).matches() ? header : UUID.randomUUID().toString();
        MDC.put(MDC_KEY, id);
        return id;
    }
}
