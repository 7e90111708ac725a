package dev.a2atasks.push;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which addresses a webhook may be called at (spec §13.2, SSRF). An address in any of the ranges
 * below is refused unless the allow-list names it:
 *
 * <table>
 * <caption>Refused ranges</caption>
 * <tr><th>kind</th><th>IPv4</th><th>IPv6</th></tr>
 * <tr><td>unspecified</td><td>0.0.0.0/8</td><td>::/128</td></tr>
 * <tr><td>loopback</td><td>127.0.0.0/8</td><td>::1/128</td></tr>
 * <tr><td>private</td><td>10/8, 172.16/12, 192.168/16, 100.64/10 (carrier NAT)</td><td>fc00::/7, fec0::/10</td></tr>
 * <tr><td>link-local</td><td>169.254/16 (cloud metadata lives here)</td><td>fe80::/10</td></tr>
 * <tr><td>multicast</td><td>224/4</td><td>ff00::/8</td></tr>
 * <tr><td>reserved</td><td>240/4 (with broadcast), 192.0.0/24, 198.18/15</td><td>Teredo 2001::/32, discard 100::/64</td></tr>
 * </table>
 *
 * An IPv6 address that carries an IPv4 one (mapped ::ffff:0:0/96, compatible ::/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4 address it carries, so no spelling of
 * 127.0.0.1 gets through.
 *
 * <p>The allow-list holds CIDR ranges ({@code 10.1.2.0/24}), single addresses, and host names
 * (exact, case-insensitive: every address that name resolves to is then allowed). The policy
 * judges addresses, never the text of a URL: decimal, octal or mapped spellings of an address are
 * resolved first and judged by what they resolve to.
 */
public final class AddressPolicy {

    private final List<Range> allowedRanges;
    private final List<String> allowedHosts;

    private AddressPolicy(List<Range> allowedRanges, List<String> allowedHosts) {
        this.allowedRanges = allowedRanges;
        this.allowedHosts = allowedHosts;
    }

    /** No exceptions: the production default. */
    public static AddressPolicy strict() {
        return new AddressPolicy(List.of(), List.of());
    }

    /** Entries are CIDR ranges, addresses or host names; a malformed range fails start-up, naming it. */
    public static AddressPolicy allowing(List<String> entries) {
        List<Range> ranges = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        for (String raw : entries) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.contains("/") || looksNumeric(entry)) {
                ranges.add(Range.parse(entry));
            } else {
                hosts.add(entry.toLowerCase(Locale.ROOT));
            }
        }
        return new AddressPolicy(List.copyOf(ranges), List.copyOf(hosts));
    }

    /** Null when the host may be called at all these addresses; otherwise why not, naming the first refused one. */
    public String refusal(String host, List<InetAddress> addresses) {
        if (addresses.isEmpty()) {
            return "its host does not resolve to any address";
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (allowedHosts.contains(bare.toLowerCase(Locale.ROOT))) {
            return null;
        }
        for (InetAddress address : addresses) {
            String kind = kind(address);
            if (kind != null && !allowed(address)) {
                return "its host resolves to " + address.getHostAddress() + ", a " + kind + " address";
            }
        }
        return null;
    }

    private boolean allowed(InetAddress address) {
        InetAddress embedded = embeddedIpv4(address);
        for (Range range : allowedRanges) {
            if (range.contains(address) || (embedded != null && range.contains(embedded))) {
                return true;
            }
        }
        return false;
    }

    /** The kind of a refused address ("loopback", "private", ...), or null for a public one. */
    public static String kind(InetAddress address) {
        InetAddress embedded = embeddedIpv4(address);
        if (embedded != null) {
            return kind(embedded);
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int a0 = b[0] & 0xff;
            int a1 = b[1] & 0xff;
            int a2 = b[2] & 0xff;
            if (a0 == 0) {
                return "unspecified";
            }
            if (a0 == 127) {
                return "loopback";
            }
            if (a0 == 10 || (a0 == 172 && (a1 & 0xf0) == 16) || (a0 == 192 && a1 == 168) || (a0 == 100 && (a1 & 0xc0) == 64)) {
                return "private";
            }
            if (a0 == 169 && a1 == 254) {
                return "link-local";
            }
            if ((a0 & 0xf0) == 224) {
                return "multicast";
            }
            if ((a0 & 0xf0) == 240 || (a0 == 192 && a1 == 0 && a2 == 0) || (a0 == 198 && (a1 & 0xfe) == 18)) {
                return "reserved";
            }
            return null;
        }
        if (address.isAnyLocalAddress()) {
            return "unspecified";
        }
        if (address.isLoopbackAddress()) {
            return "loopback";
        }
        int h0 = b[0] & 0xff;
        int h1 = b[1] & 0xff;
        if ((h0 & 0xfe) == 0xfc || (h0 == 0xfe && (h1 & 0xc0) == 0xc0)) {
            return "private";
        }
        if (h0 == 0xfe && (h1 & 0xc0) == 0x80) {
            return "link-local";
        }
        if (h0 == 0xff) {
            return "multicast";
        }
        if ((h0 == 0x20 && h1 == 0x01 && b[2] == 0 && b[3] == 0) || (h0 == 0x01 && h1 == 0 && allZero(b, 2, 8))) {
            return "reserved";
        }
        return null;
    }

    /** The IPv4 address an IPv6 one carries (mapped, translated, compatible, NAT64, 6to4), or null. */
    static InetAddress embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return null;
        }
        byte[] b = address.getAddress();
        int from;
        if (allZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            from = 12; // ::ffff:a.b.c.d
        } else if (allZero(b, 0, 8) && (b[8] & 0xff) == 0xff && (b[9] & 0xff) == 0xff && allZero(b, 10, 12)) {
            from = 12; // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765)
        } else if (allZero(b, 0, 12) && !(allZero(b, 12, 15) && (b[15] == 0 || b[15] == 1))) {
            from = 12; // ::a.b.c.d (not :: or ::1)
        } else if ((b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
                && allZero(b, 4, 12)) {
            from = 12; // 64:ff9b::a.b.c.d
        } else if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
            from = 2; // 2002:aabb:ccdd::
        } else {
            return null;
        }
        try {
            return InetAddress.getByAddress(new byte[] { b[from], b[from + 1], b[from + 2], b[from + 3] });
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean looksNumeric(String entry) {
        return entry.contains(":") || entry.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    /** A CIDR range; a bare address is a range of one. */
    record Range(byte[] network, int prefix) {

        static Range parse(String cidr) {
            int slash = cidr.indexOf('/');
            String addressText = slash < 0 ? cidr : cidr.substring(0, slash);
            byte[] network;
            try {
                // Only literals reach here (digits, dots, colons): no name lookup happens.
                network = InetAddress.getByName(addressText).getAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("a2a.push.allow-list: '" + cidr + "' is not an address or CIDR range");
            }
            int prefix;
            try {
                prefix = slash < 0 ? network.length * 8 : Integer.parseInt(cidr.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a2a.push.allow-list: '" + cidr + "' has no valid prefix length");
            }
            if (prefix < 0 || prefix > network.length * 8) {
                throw new IllegalArgumentException("a2a.push.allow-list: '" + cidr + "' has a prefix length out of range");
            }
            return new Range(network, prefix);
        }

        boolean contains(InetAddress address) {
            byte[] b = address.getAddress();
            if (b.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (b[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (b[full] & mask) == (network[full] & mask);
        }
    }
}
