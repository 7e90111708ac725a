package dev.a2atasks.client;

import java.util.List;

/**
 * A ListTasks call that failed: refused by the server, or never answered. {@code status} is the
 * gRPC status name (the HTTP+JSON binding reports the same names; a transport failure is
 * {@code UNAVAILABLE} or {@code DEADLINE_EXCEEDED}), {@code fields} the fields a BadRequest detail
 * names. The message names the endpoint and the cause; the transport's exception is the cause.
 */
public class ListingException extends RuntimeException {

    private final String endpoint;
    private final String status;
    private final List<String> fields;

    public ListingException(String status, String message, List<String> fields) {
        this(null, status, message, fields, null);
    }

    public ListingException(String endpoint, String status, String message, List<String> fields, Throwable cause) {
        super((endpoint == null ? "" : "ListTasks at " + endpoint + ": ") + status + ": " + message, cause);
        this.endpoint = endpoint;
        this.status = status;
        this.fields = List.copyOf(fields);
    }

    /** Where the call went (gRPC target or URL), or null when not known. */
    public String endpoint() {
        return endpoint;
    }

    public String status() {
        return status;
    }

    public List<String> fields() {
        return fields;
    }

    /** An expired, retired or otherwise unusable page token: the walk can only start over. */
    public boolean isPageTokenError() {
        return "INVALID_ARGUMENT".equals(status) && fields.contains("pageToken");
    }

    /**
     * The credentials were refused: retrying with the same ones cannot succeed, only new ones
     * (a refreshed token, changed configuration) can.
     */
    public boolean isCredentialError() {
        return "UNAUTHENTICATED".equals(status) || "PERMISSION_DENIED".equals(status);
    }
}
