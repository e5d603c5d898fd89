package io.erasure.store.http.target;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Every address range that is not a public destination: IANA's IPv4 and IPv6 special-purpose registries
 * (RFC 6890 and its updates), multicast, and for IPv6 everything outside global unicast {@code 2000::/3}. An address
 * outside all of them is public.
 *
 * <p>Some IPv6 addresses carry an IPv4 address that is the real destination, and that one must be judged too
 * ({@link #embeddedIpv4}): IPv4-mapped {@code ::ffff:a.b.c.d} (which <em>is</em> that IPv4 address), NAT64
 * {@code 64:ff9b::a.b.c.d} (RFC 6052; the local-use {@code 64:ff9b:1::/48} read with the same /96 layout),
 * 6to4 {@code 2002:AABB:CCDD::} (RFC 3056) and the deprecated IPv4-compatible {@code ::a.b.c.d}.
 */
final class NonPublicRanges {

    private static final String RESERVED_V6 = "reserved by IETF, RFC 4291";

    private static final List<AddressRange> RANGES = List.of(
            range("0.0.0.0/8", "\"this network\", with the unspecified 0.0.0.0, RFC 791"),
            range("10.0.0.0/8", "private network, RFC 1918"),
            range("100.64.0.0/10", "shared address space for carrier-grade NAT, RFC 6598"),
            range("127.0.0.0/8", "loopback"),
            range("169.254.0.0/16", "link-local, with the cloud metadata endpoint 169.254.169.254"),
            range("172.16.0.0/12", "private network, RFC 1918"),
            range("192.0.0.0/24", "IETF protocol assignments, RFC 6890"),
            range("192.0.2.0/24", "documentation TEST-NET-1, RFC 5737"),
            range("192.88.99.0/24", "6to4 relay anycast, deprecated by RFC 7526"),
            range("192.168.0.0/16", "private network, RFC 1918"),
            range("198.18.0.0/15", "benchmarking, RFC 2544"),
            range("198.51.100.0/24", "documentation TEST-NET-2, RFC 5737"),
            range("203.0.113.0/24", "documentation TEST-NET-3, RFC 5737"),
            range("224.0.0.0/4", "multicast"),
            range("240.0.0.0/4", "reserved for future use, RFC 1112"),
            range("255.255.255.255/32", "limited broadcast"),
            range("::/128", "unspecified"),
            range("::1/128", "loopback"),
            range("::/96", "IPv4-compatible, deprecated by RFC 4291"),
            range("::/8", RESERVED_V6),
            range("64:ff9b::/96", "NAT64 well-known prefix, RFC 6052"),
            range("64:ff9b:1::/48", "NAT64 local-use prefix, RFC 8215"),
            range("100::/64", "discard-only, RFC 6666"),
            range("100::/8", RESERVED_V6),
            range("200::/7", RESERVED_V6),
            range("400::/6", RESERVED_V6),
            range("800::/5", RESERVED_V6),
            range("1000::/4", RESERVED_V6),
            range("2001::/23", "IETF protocol assignments, RFC 2928"),
            range("2001::/32", "Teredo tunnelling, RFC 4380"),
            range("2001:2::/48", "benchmarking, RFC 5180"),
            range("2001:db8::/32", "documentation, RFC 3849"),
            range("2002::/16", "6to4, deprecated by RFC 7526"),
            range("3fff::/20", "documentation, RFC 9637"),
            range("4000::/3", RESERVED_V6),
            range("5f00::/16", "SRv6 segment identifiers, RFC 9602"),
            range("6000::/3", RESERVED_V6),
            range("8000::/3", RESERVED_V6),
            range("a000::/3", RESERVED_V6),
            range("c000::/3", RESERVED_V6),
            range("e000::/4", RESERVED_V6),
            range("f000::/5", RESERVED_V6),
            range("f800::/6", RESERVED_V6),
            range("fc00::/7", "unique local, RFC 4193"),
            range("fe00::/9", RESERVED_V6),
            range("fe80::/10", "link-local"),
            range("fec0::/10", "site-local, deprecated by RFC 3879"),
            range("ff00::/8", "multicast"));

    private static final AddressRange NAT64 = range("64:ff9b::/96", "NAT64");
    private static final AddressRange NAT64_LOCAL = range("64:ff9b:1::/48", "NAT64");
    private static final AddressRange SIX_TO_FOUR = range("2002::/16", "6to4");

    private NonPublicRanges() {}

    /** The most specific non-public range {@code address} is in, or empty if it is public. */
    static Optional<AddressRange> rangeOf(InetAddress address) {
        return RANGES.stream()
                .filter(range -> range.contains(address))
                .max(Comparator.comparingInt(AddressRange::prefixLength));
    }

    /** True for {@code ::ffff:a.b.c.d}: the destination is the IPv4 address alone, nothing else is judged. */
    static boolean isIpv4Mapped(InetAddress address) {
        return address instanceof Inet6Address && isIpv4Mapped(address.getAddress());
    }

    /** The IPv4 address an IPv6 address carries as its real destination (see the class comment), if any. */
    static Optional<Inet4Address> embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] bytes = address.getAddress();
        if (isIpv4Mapped(bytes)
                || NAT64.contains(address)
                || NAT64_LOCAL.contains(address)
                || isIpv4Compatible(bytes)) {
            return Optional.of(ipv4(Arrays.copyOfRange(bytes, 12, 16)));
        }
        if (SIX_TO_FOUR.contains(address)) {
            return Optional.of(ipv4(Arrays.copyOfRange(bytes, 2, 6)));
        }
        return Optional.empty();
    }

    // the JDK turns ::ffff:a.b.c.d into an Inet4Address when it parses one, but Inet6Address.getByAddress keeps it
    private static boolean isIpv4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    // ::a.b.c.d, but not :: and ::1, which are IPv6's own unspecified and loopback addresses
    private static boolean isIpv4Compatible(byte[] bytes) {
        for (int i = 0; i < 12; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return (bytes[12] | bytes[13] | bytes[14]) != 0 || (bytes[15] & 0xff) > 1;
    }

    private static Inet4Address ipv4(byte[] bytes) {
        try {
            return (Inet4Address) InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 bytes are always an IPv4 address", e);
        }
    }

    private static AddressRange range(String cidr, String purpose) {
        return AddressRange.parse(cidr, purpose);
    }
}
