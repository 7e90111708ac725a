package dev.a2atasks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.a2atasks.support.BindingTest;
import dev.a2atasks.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 16: every way a call can fail gives a ListingException whose message names the endpoint
 * and the cause, on both bindings, with the transport's exception kept as the cause.
 */
@QuarkusTest
class ClientErrorsTest extends BindingTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void connectionRefused(String binding) throws IOException {
        int port;
        try (ServerSocket closed = new ServerSocket(0)) {
            port = closed.getLocalPort();
        }
        ListingException e = fail(listing(binding, "127.0.0.1", port, true, Tokens.valid("t", "s")));
        assertNamed(e, "127.0.0.1:" + port, "connection refused");
        assertEquals("UNAVAILABLE", e.status());
        assertNotNull(e.getCause());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void unknownHost(String binding) {
        ListingException e = fail(listing(binding, "no-such-host.invalid", 443, true, Tokens.valid("t", "s")));
        assertNamed(e, "no-such-host.invalid", "unknown host");
        assertEquals("UNAVAILABLE", e.status());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void serverThatNeverAnswers(String binding) throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // accept, read nothing, answer nothing
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.start();
            ListingException e = fail(listing(binding, "127.0.0.1", silent.getLocalPort(), true, Tokens.valid("t", "s")));
            assertNamed(e, "127.0.0.1:" + silent.getLocalPort(), "");
            assertEquals("DEADLINE_EXCEEDED", e.status(), e.getMessage());
            assertTrue(e.getMessage().toLowerCase().contains("deadline") || e.getMessage().contains("timed out"), e.getMessage());
            silent.close();
            acceptor.join(5000);
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void tlsClientAgainstAPlaintextServer(String binding) {
        ListingException e = fail(listing(binding, root.getHost(), root.getPort(), false, Tokens.valid("t", "s")));
        assertNamed(e, root.getHost() + ":" + root.getPort(), "TLS mismatch");
        assertEquals("UNAVAILABLE", e.status());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "grpc", "http" })
    void refusedCredentialsCarryTheServersMessage(String binding) {
        ListingException e = fail(listing(binding, root.getHost(), root.getPort(), true, Tokens.expired("someone")));
        assertNamed(e, root.getHost() + ":" + root.getPort(), "UNAUTHENTICATED");
        assertTrue(e.isCredentialError());
        assertTrue(e.getMessage().toLowerCase().contains("token"), "the server's reason is kept: " + e.getMessage());
    }

    private static ListingException fail(TaskListing listing) {
        try (listing) {
            return assertThrows(ListingException.class, () -> listing.list(ListFilter.all().request("")));
        }
    }

    private static void assertNamed(ListingException e, String endpoint, String cause) {
        System.out.println("ListingException: " + e.getMessage());
        assertTrue(e.getMessage().contains(endpoint), "names the endpoint: " + e.getMessage());
        assertTrue(e.getMessage().contains(cause), "names the cause (" + cause + "): " + e.getMessage());
        assertTrue(e.endpoint().contains(endpoint), e.endpoint());
    }

    /** @param plaintext for HTTP: http:// (true) or https:// (false) */
    private static TaskListing listing(String binding, String host, int port, boolean plaintext, String token) {
        return binding.equals("grpc") ? new GrpcTaskListing(host + ":" + port, plaintext, () -> token, TIMEOUT)
                : new HttpTaskListing(URI.create((plaintext ? "http" : "https") + "://" + host + ":" + port), () -> token, TIMEOUT);
    }
}
