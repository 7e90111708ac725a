package dev.a2atasks.client;

import java.util.List;

/**
 * A ListTasks call (or ListTaskMessages, history paging) that failed: refused by the server, or never answered. {@code status} is the
 * gRPC status name (the HTTP+JSON binding reports the same names; a transport failure is
 * {@code UNAVAILABLE} or {@code DEADLINE_EXCEEDED}), {@code fields} the fields a BadRequest detail
 * names. The message names the endpoint and the cause; the transport's exception is the cause.
 */
public class ListingException extends RuntimeException {

    private final String operation;
    private final String endpoint;
    private final String status;
    private final String detail;
    private final List<String> fields;

    public ListingException(String status, String message, List<String> fields) {
        this(null, status, message, fields, null);
    }

    public ListingException(String endpoint, String status, String message, List<String> fields, Throwable cause) {
        this("ListTasks", endpoint, status, message, fields, cause);
    }

    private ListingException(String operation, String endpoint, String status, String message, List<String> fields, Throwable cause) {
        super((endpoint == null ? "" : operation + " at " + endpoint + ": ") + status + ": " + message, cause);
        this.operation = operation;
        this.endpoint = endpoint;
        this.status = status;
        this.detail = message;
        this.fields = List.copyOf(fields);
    }

    /** The same failure, told as a failure of another operation over the same connection. */
    ListingException of(String otherOperation) {
        return otherOperation.equals(operation) ? this
                : new ListingException(otherOperation, endpoint, status, detail, fields, getCause());
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
