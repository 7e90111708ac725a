package dev.a2atasks.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The address policy alone: which addresses are refused, how each spelling is judged, what the allow-list lets through. */
class AddressPolicyUnitTest {

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal); // literals only: no lookup
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @CsvSource({
            "127.0.0.1, loopback", "127.255.0.9, loopback", "::1, loopback",
            "10.0.0.1, private", "172.16.0.1, private", "172.31.255.255, private", "192.168.1.1, private", "100.64.0.1, private",
            "fc00::1, private", "fd12:3456::1, private", "fec0::1, private",
            "169.254.169.254, link-local", "fe80::1, link-local",
            "224.0.0.1, multicast", "239.255.255.250, multicast", "ff02::1, multicast",
            "0.0.0.0, unspecified", "0.1.2.3, unspecified", "::, unspecified",
            "240.0.0.1, reserved", "255.255.255.255, reserved", "192.0.0.8, reserved", "198.18.0.1, reserved", "2001::1, reserved",
            "::ffff:127.0.0.1, loopback", "::ffff:0:127.0.0.1, loopback", "::ffff:0:10.0.0.1, private", "::ffff:10.1.1.1, private", "::127.0.0.1, loopback", "64:ff9b::a9fe:a9fe, link-local",
            "2002:7f00:1::, loopback", "2002:c0a8:0101::1, private" })
    void refusedRanges(String address, String kind) {
        assertEquals(kind, AddressPolicy.kind(ip(address)), address);
        assertTrue(AddressPolicy.strict().refusal("h", List.of(ip(address))).endsWith("a " + kind + " address"), address);
    }

    @ParameterizedTest
    @ValueSource(strings = { "8.8.8.8", "203.0.113.10", "172.32.0.1", "172.15.255.255", "100.128.0.1", "192.169.0.1", "11.0.0.1",
            "2606:4700::1111", "2001:db8::1", "64:ff9b::808:808", "2002:0808:0808::1" })
    void publicAddressesPass(String address) {
        assertNull(AddressPolicy.kind(ip(address)), address);
        assertNull(AddressPolicy.strict().refusal("h", List.of(ip(address))), address);
    }

    @Test
    void oneRefusedAddressAmongManyRefusesTheHost() {
        String refusal = AddressPolicy.strict().refusal("hooks.example", List.of(ip("203.0.113.1"), ip("10.0.0.5")));
        assertEquals("its host resolves to 10.0.0.5, a private address", refusal);
        assertEquals("its host does not resolve to any address", AddressPolicy.strict().refusal("x", List.of()));
    }

    @Test
    void theAllowListLetsNamedRangesAddressesAndHostsThrough() {
        AddressPolicy policy = AddressPolicy.allowing(List.of("10.20.0.0/16", "127.0.0.1", "Hooks.Internal", " ", "fd00::/8"));
        assertNull(policy.refusal("a", List.of(ip("10.20.3.4"))));
        assertEquals("its host resolves to 10.21.0.1, a private address", policy.refusal("a", List.of(ip("10.21.0.1"))));
        assertNull(policy.refusal("a", List.of(ip("127.0.0.1"))));
        assertEquals("its host resolves to 127.0.0.2, a loopback address", policy.refusal("a", List.of(ip("127.0.0.2"))));
        assertNull(policy.refusal("hooks.internal", List.of(ip("192.168.7.7"))), "a named host: whatever it resolves to");
        assertNull(policy.refusal("a", List.of(ip("::ffff:127.0.0.1"))), "a mapped spelling of an allowed address");
        assertNull(policy.refusal("a", List.of(ip("fd00::9"))));
    }

    @ParameterizedTest
    @ValueSource(strings = { "10.0.0.0/33", "10.0.0.0/x", "300.1.1.1/8", "::1/129" })
    void aMalformedRangeFailsStartUpNamingIt(String entry) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AddressPolicy.allowing(List.of(entry)));
        assertTrue(e.getMessage().contains(entry), e.getMessage());
    }
}
