package dev.a2atasks.binding.json;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.a2atasks.error.A2AException;

/**
 * An error as an HTTP response of the JSON bindings: status, media type, headers, body. Built
 * once here for every HTTP error path (the HTTP+JSON resources, the router's own refusals), so a
 * 404 for an unknown path reads like a 404 for an unknown task.
 */
public record HttpError(int status, String mediaType, Map<String, String> headers, byte[] body) {

    /** The HTTP+JSON error ({@code {"error":{code,status,message,details}}}), in the media type the caller accepts. */
    public static HttpError of(A2AException error, String accept) {
        byte[] body = ErrorJson.httpBody(error).toString().getBytes(StandardCharsets.UTF_8);
        return new HttpError(error.kind().httpStatus(), mediaType(accept), headers(error), body);
    }

    /** The same refusal as a JSON-RPC error response (no request id could be read), with the HTTP status kept. */
    public static HttpError ofJsonRpc(A2AException error) {
        byte[] body = ErrorJson.jsonRpcBody(com.fasterxml.jackson.databind.node.NullNode.instance, error).toString()
                .getBytes(StandardCharsets.UTF_8);
        return new HttpError(error.kind().httpStatus(), "application/json", headers(error), body);
    }

    /**
     * Headers every HTTP binding adds to this error: {@code WWW-Authenticate} for a credentials
     * problem, {@code Retry-After} (seconds) for an error a retry can cure.
     */
    public static Map<String, String> headers(A2AException error) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (error instanceof A2AException.Unauthenticated) {
            headers.put("WWW-Authenticate", "Bearer");
        }
        error.retryAfter().ifPresent(delay -> headers.put("Retry-After", Long.toString(A2AException.Unavailable.seconds(delay))));
        return headers;
    }

    /**
     * The media type an error is written in, chosen as for a success: the A2A type unless the
     * caller's Accept names plain JSON and not the A2A type (or a wildcard that covers it).
     */
    static String mediaType(String accept) {
        if (accept == null || accept.isBlank()) {
            return MediaTypes.A2A_JSON;
        }
        boolean json = false;
        for (String range : accept.split(",")) {
            String type = range.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
            if (type.equals(MediaTypes.A2A_JSON) || type.equals("*/*") || type.equals("application/*")) {
                return MediaTypes.A2A_JSON;
            }
            json |= type.equals("application/json");
        }
        return json ? "application/json" : MediaTypes.A2A_JSON;
    }
}
