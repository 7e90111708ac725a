package dev.a2atasks.client;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.List;
import java.util.Locale;

import javax.net.ssl.SSLException;

/**
 * Names the cause of a call that got no answer, the same way for both bindings: a user reading
 * "connection refused" or "TLS mismatch" knows what to fix, "IOException" does not.
 */
final class TransportFailures {

    private TransportFailures() {
    }

    /** A failure without a server answer, as a ListingException naming endpoint and cause. */
    static ListingException of(String endpoint, Throwable failure, boolean expectingTls) {
        boolean timeout = false;
        for (Throwable t : chain(failure)) {
            if (t instanceof HttpConnectTimeoutException) { // no connection within the timeout: unreachable
                return new ListingException(endpoint, "UNAVAILABLE", "connect timed out (" + t.getMessage() + ")", List.of(),
                        failure);
            }
            timeout |= t instanceof HttpTimeoutException || t instanceof SocketTimeoutException;
        }
        return new ListingException(endpoint, timeout ? "DEADLINE_EXCEEDED" : "UNAVAILABLE", describe(failure, expectingTls),
                List.of(), failure);
    }

    /**
     * One line: the kind of failure, then the message that says it. The whole cause chain is
     * searched for each kind in turn, the most specific first: the JDK reports an unknown host as
     * a ConnectException caused by an UnresolvedAddressException.
     */
    static String describe(Throwable failure, boolean expectingTls) {
        List<Throwable> chain = chain(failure);
        for (Throwable t : chain) {
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return "unknown host (DNS lookup failed): " + message(t);
            }
        }
        for (Throwable t : chain) {
            if (t instanceof SSLException || lower(t).contains("not an ssl/tls record")) {
                return "TLS mismatch: " + (expectingTls ? "the client speaks TLS; is the server plaintext?"
                        : "the server speaks TLS; is the client configured for plaintext?") + " (" + message(t) + ")";
            }
        }
        for (Throwable t : chain) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException
                    || lower(t).contains("connection refused")) {
                return "connection refused: " + message(t);
            }
        }
        for (Throwable t : chain) {
            if (t instanceof HttpTimeoutException || t instanceof SocketTimeoutException) {
                return "timed out: " + message(t);
            }
        }
        Throwable root = chain.get(chain.size() - 1);
        String text = lower(root);
        if (!expectingTls && (text.contains("header parser received no bytes") || text.contains("connection reset")
                || text.contains("first received frame was not settings"))) {
            return "connection closed without an answer (is the server TLS-only while the client is plaintext?): "
                    + message(root);
        }
        return "no answer: " + message(root);
    }

    private static List<Throwable> chain(Throwable failure) {
        java.util.ArrayList<Throwable> list = new java.util.ArrayList<>();
        for (Throwable t = failure; t != null && list.size() < 16; t = t.getCause()) {
            list.add(t);
        }
        return list;
    }

    private static String lower(Throwable t) {
        return String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
    }

    private static String message(Throwable t) {
        String text = t.getMessage() == null ? "" : " " + t.getMessage();
        return t.getClass().getSimpleName() + (text.length() > 120 ? text.substring(0, 120) + "..." : text);
    }
}
