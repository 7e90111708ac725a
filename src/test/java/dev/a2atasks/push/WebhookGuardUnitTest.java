package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which hosts the guard judges on the caller's thread: only those the JDK takes as an address
 * without a lookup. A host taken for one by mistake would be looked up on the delivery loop and
 * block it; a real address taken for a name only costs a hop to a worker thread.
 */
class WebhookGuardUnitTest {

    @Test
    void canonicalIpv4AndBracketedIpv6AreAddresses() {
        for (String host : new String[] { "127.0.0.1", "0.0.0.0", "255.255.255.255", "10.20.30.40", "192.168.1.9", "[::1]",
                "[2001:db8::7]" }) {
            assertTrue(WebhookGuard.isAddress(host), host);
        }
    }

    @Test
    void namesAndOtherIpv4FormsGoToTheResolver() {
        for (String host : new String[] { "localhost", "hooks.example.com", "256.1.1.1", "999.1.1.1", "010.1.1.1", "127.1",
                "1.2.3.4.5", "1.2.3", "1.2.3.4.example.com", "0x7f.0.0.1", "" }) {
            assertFalse(WebhookGuard.isAddress(host), host);
        }
    }
}
