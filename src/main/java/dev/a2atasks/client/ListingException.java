package dev.a2atasks.client;

import java.util.List;

/**
 * A ListTasks call the server refused. {@code status} is the gRPC status name (the HTTP+JSON
 * binding reports the same names), {@code fields} the fields its BadRequest detail names.
 */
public class ListingException extends RuntimeException {

    private final String status;
    private final List<String> fields;

    public ListingException(String status, String message, List<String> fields) {
        super(status + ": " + message);
        this.status = status;
        this.fields = List.copyOf(fields);
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
}
