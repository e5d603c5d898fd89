package io.erasure.store.http.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.http.HttpCallbackSettings;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class TargetPolicyTest {

    private static final String ALLOWED = "owner.example.com,*.corp.example.com";

    /**
     * Every non-public range with its first and last address, and the public neighbours just outside it; the range
     * an address is refused for (the most specific one), or "public".
     */
    static Stream<Arguments> addressTable() {
        return Stream.of(
                row("0.0.0.0", "0.0.0.0/8"),
                row("0.255.255.255", "0.0.0.0/8"),
                row("1.0.0.0", "public"),
                row("9.255.255.255", "public"),
                row("10.0.0.0", "10.0.0.0/8"),
                row("10.255.255.255", "10.0.0.0/8"),
                row("11.0.0.0", "public"),
                row("100.63.255.255", "public"),
                row("100.64.0.0", "100.64.0.0/10"),
                row("100.127.255.255", "100.64.0.0/10"),
                row("100.128.0.0", "public"),
                row("126.255.255.255", "public"),
                row("127.0.0.0", "127.0.0.0/8"),
                row("127.0.0.1", "127.0.0.0/8"),
                row("127.255.255.255", "127.0.0.0/8"),
                row("128.0.0.0", "public"),
                row("169.253.255.255", "public"),
                row("169.254.0.0", "169.254.0.0/16"),
                row("169.254.169.254", "169.254.0.0/16"),
                row("169.254.255.255", "169.254.0.0/16"),
                row("169.255.0.0", "public"),
                row("172.15.255.255", "public"),
                row("172.16.0.0", "172.16.0.0/12"),
                row("172.31.255.255", "172.16.0.0/12"),
                row("172.32.0.0", "public"),
                row("191.255.255.255", "public"),
                row("192.0.0.0", "192.0.0.0/24"),
                row("192.0.0.255", "192.0.0.0/24"),
                row("192.0.1.0", "public"),
                row("192.0.2.0", "192.0.2.0/24"),
                row("192.0.2.255", "192.0.2.0/24"),
                row("192.0.3.0", "public"),
                row("192.88.98.255", "public"),
                row("192.88.99.0", "192.88.99.0/24"),
                row("192.88.99.255", "192.88.99.0/24"),
                row("192.88.100.0", "public"),
                row("192.167.255.255", "public"),
                row("192.168.0.0", "192.168.0.0/16"),
                row("192.168.255.255", "192.168.0.0/16"),
                row("192.169.0.0", "public"),
                row("198.17.255.255", "public"),
                row("198.18.0.0", "198.18.0.0/15"),
                row("198.19.255.255", "198.18.0.0/15"),
                row("198.20.0.0", "public"),
                row("198.51.99.255", "public"),
                row("198.51.100.0", "198.51.100.0/24"),
                row("198.51.100.255", "198.51.100.0/24"),
                row("198.51.101.0", "public"),
                row("203.0.112.255", "public"),
                row("203.0.113.0", "203.0.113.0/24"),
                row("203.0.113.255", "203.0.113.0/24"),
                row("203.0.114.0", "public"),
                row("223.255.255.255", "public"),
                row("224.0.0.0", "224.0.0.0/4"),
                row("239.255.255.255", "224.0.0.0/4"),
                row("240.0.0.0", "240.0.0.0/4"),
                row("255.255.255.254", "240.0.0.0/4"),
                row("255.255.255.255", "255.255.255.255/32"),
                row("8.8.8.8", "public"),
                row("93.184.216.34", "public"),
                row("::", "::/128"),
                row("::1", "::1/128"),
                row("::2", "::/96"),
                row("::10.0.0.1", "::/96"),
                row("::8.8.8.8", "::/96"),
                row("::255.255.255.255", "::/96"),
                row("::1:0:0", "::/8"),
                row("::ffff:127.0.0.1", "127.0.0.0/8"),
                row("::ffff:169.254.169.254", "169.254.0.0/16"),
                row("::ffff:100.64.0.1", "100.64.0.0/10"),
                row("::ffff:8.8.8.8", "public"),
                row("64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff", "::/8"),
                row("64:ff9b::", "64:ff9b::/96"),
                row("64:ff9b::8.8.8.8", "64:ff9b::/96"),
                row("64:ff9b::ffff:ffff", "64:ff9b::/96"),
                row("64:ff9b::1:0:0", "::/8"),
                row("64:ff9b:1::", "64:ff9b:1::/48"),
                row("64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "64:ff9b:1::/48"),
                row("64:ff9b:2::", "::/8"),
                row("100::", "100::/64"),
                row("100::ffff:ffff:ffff:ffff", "100::/64"),
                row("100:0:0:1::", "100::/8"),
                row("1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "1000::/4"),
                row("2000::", "public"),
                row("2001::", "2001::/32"),
                row("2001:0:ffff:ffff:ffff:ffff:ffff:ffff", "2001::/32"),
                row("2001:1::1", "2001::/23"),
                row("2001:2::", "2001:2::/48"),
                row("2001:2:0:ffff:ffff:ffff:ffff:ffff", "2001:2::/48"),
                row("2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "2001::/23"),
                row("2001:200::", "public"),
                row("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "public"),
                row("2001:db8::", "2001:db8::/32"),
                row("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db8::/32"),
                row("2001:db9::", "public"),
                row("2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "public"),
                row("2002::", "2002::/16"),
                row("2002:808:808::1", "2002::/16"),
                row("2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2002::/16"),
                row("2003::", "public"),
                row("3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "public"),
                row("3fff::", "3fff::/20"),
                row("3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff::/20"),
                row("3fff:1000::", "public"),
                row("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "public"),
                row("4000::", "4000::/3"),
                row("5f00::1", "5f00::/16"),
                row("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "f800::/6"),
                row("fc00::", "fc00::/7"),
                row("fd12:3456::1", "fc00::/7"),
                row("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fc00::/7"),
                row("fe00::", "fe00::/9"),
                row("fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe00::/9"),
                row("fe80::", "fe80::/10"),
                row("fe80::1", "fe80::/10"),
                row("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::/10"),
                row("fec0::", "fec0::/10"),
                row("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fec0::/10"),
                row("ff00::", "ff00::/8"),
                row("ff02::1", "ff00::/8"),
                row("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ff00::/8"),
                row("2001:4860:4860::8888", "public"),
                row("2606:4700:4700::1111", "public"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("addressTable")
    void everyNonPublicAddressIsRefusedAndEveryPublicOnePasses(String literal, String range) {
        assertThat(TargetPolicy.forbiddenKind(ip(literal)).isPresent()).isEqualTo(!range.equals("public"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("addressTable")
    void aRefusalNamesTheRangeTheAddressIsIn(String literal, String range) {
        if (!range.equals("public")) {
            assertThat(TargetPolicy.forbiddenKind(ip(literal)))
                    .hasValueSatisfying(why -> assertThat(why).contains("in " + range + " ("));
        }
    }

    @Test
    void anIpv4MappedAddressKeptAsIpv6IsJudgedAsItsIpv4Address() throws UnknownHostException {
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 1};
        byte[] mappedPublic = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 8, 8, 8, 8};

        assertThat(TargetPolicy.forbiddenKind(Inet6Address.getByAddress(null, mapped, -1)))
                .hasValue("carrying the IPv4 address 10.0.0.1, in 10.0.0.0/8 (private network, RFC 1918)");
        assertThat(TargetPolicy.forbiddenKind(Inet6Address.getByAddress(null, mappedPublic, -1)))
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"64:ff9b::a00:1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::6440:1", "64:ff9b:1::a00:1"
            })
    void anAllowedNat64PrefixStillRefusesTheInternalIpv4AddressItCarries(String literal) {
        TargetPolicy policy =
                policy(Map.of("allowed-addresses", "64:ff9b::/96, 64:ff9b:1::/48"), host -> List.of(ip(literal)));

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://owner.example.com/delete"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("resolves to " + ip(literal).getHostAddress() + ", carrying the IPv4 address");
    }

    @Test
    void nat64IsRefusedUntilOperatorsAllowItAndThenOnlyForPublicIpv4() {
        HostResolver dns = host -> List.of(ip("64:ff9b::808:808"));

        assertThatThrownBy(() -> policy(Map.of(), dns).check("copy.httpCallback.url", "https://owner.example.com/d"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("in 64:ff9b::/96 (NAT64 well-known prefix, RFC 6052)")
                .hasMessageContaining("operators add 64:ff9b::/96");
        assertThat(policy(Map.of("allowed-addresses", "64:ff9b::/96"), dns)
                        .check("copy.httpCallback.url", "https://owner.example.com/d"))
                .hasHost("owner.example.com");
    }

    @Test
    void sixToFourIsJudgedOnTheIpv4AddressItCarriesEvenWhenAllowed() {
        TargetPolicy policy = policy(Map.of("allowed-addresses", "2002::/16"), host -> List.of(ip("2002:a00:1::1")));

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://owner.example.com/d"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("carrying the IPv4 address 10.0.0.1, in 10.0.0.0/8");
    }

    @Test
    void theRefusalNamesTheHostTheAddressTheRangeAndHowOperatorsAllowIt() {
        TargetPolicy policy = policy(Map.of(), host -> List.of(ip("93.184.216.34"), ip("100.64.1.1")));

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://owner.example.com/delete"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("copy.httpCallback.url https://owner.example.com/delete is refused")
                .hasMessageContaining(
                        "host 'owner.example.com' resolves to 100.64.1.1, in 100.64.0.0/10 (shared address"
                                + " space for carrier-grade NAT, RFC 6598)")
                .hasMessageContaining("operators add 100.64.0.0/10 (or 100.64.1.1/32 alone) to"
                        + " erasure.connections.c.settings.allowed-addresses")
                .hasMessageContaining("erasure.connections.c.settings.allow-private-addresses=true");
    }

    @Test
    void allowedAddressesAllowExactlyTheirRanges() throws UnknownHostException {
        Map<String, List<InetAddress>> dns = Map.of(
                "owner.example.com",
                List.of(ip("127.0.0.1")),
                "a.corp.example.com",
                List.of(ip("127.0.0.2")),
                "b.corp.example.com",
                List.of(ip("10.20.255.255")),
                "c.corp.example.com",
                List.of(ip("10.21.0.0")));
        TargetPolicy policy = policy(Map.of("allowed-addresses", "127.0.0.1/32,10.20.0.0/16"), dns::get);

        assertThat(policy.reachableAddresses("owner.example.com")).containsExactly(ip("127.0.0.1"));
        assertThat(policy.reachableAddresses("b.corp.example.com")).containsExactly(ip("10.20.255.255"));
        assertThatThrownBy(() -> policy.reachableAddresses("a.corp.example.com"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("in 127.0.0.0/8 (loopback)");
        assertThatThrownBy(() -> policy.reachableAddresses("c.corp.example.com"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("in 10.0.0.0/8");
    }

    @Test
    void theReachableAddressesAreTheOnesOneLookupReturned() throws UnknownHostException {
        AtomicInteger lookups = new AtomicInteger();
        TargetPolicy policy = policy(
                Map.of(),
                host -> lookups.incrementAndGet() == 1
                        ? List.of(ip("93.184.216.34"), ip("2606:2800:220:1::1"))
                        : List.of(ip("127.0.0.1")));

        assertThat(policy.reachableAddresses("[Owner.Example.com]"))
                .containsExactly(ip("93.184.216.34"), ip("2606:2800:220:1::1"));
        assertThat(lookups).hasValue(1);
    }

    @Test
    void hostsMatchExactlyOrAsSubdomainsOfASuffixPattern() {
        TargetPolicy policy = policy(Map.of(), host -> List.of());

        assertThat(policy.isAllowedHost("owner.example.com")).isTrue();
        assertThat(policy.isAllowedHost("a.corp.example.com")).isTrue();
        assertThat(policy.isAllowedHost("a.b.corp.example.com")).isTrue();
        assertThat(policy.isAllowedHost("corp.example.com")).isFalse();
        assertThat(policy.isAllowedHost("evilcorp.example.com")).isFalse();
        assertThat(policy.isAllowedHost("owner.example.com.evil.org")).isFalse();
        assertThat(policy.isAllowedHost("x.owner.example.com")).isFalse();
    }

    @Test
    void everyResolvedAddressMustBePublic() {
        Map<String, List<InetAddress>> dns = Map.of("owner.example.com", List.of(ip("93.184.216.34"), ip("10.0.0.7")));
        TargetPolicy policy = policy(Map.of(), dns::get);

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://owner.example.com/delete"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("resolves to 10.0.0.7, in 10.0.0.0/8 (private network, RFC 1918)")
                .hasMessageContaining("erasure.connections.c.settings.allow-private-addresses=true");
    }

    @Test
    void anUnlistedHostIsRefusedBeforeAnyLookup() {
        TargetPolicy policy = policy(Map.of(), host -> {
            throw new AssertionError("no lookup for a host that is not allowed");
        });

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://other.example.org/delete"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("https://other.example.org/delete")
                .hasMessageContaining("erasure.connections.c.settings.allowed-hosts");
    }

    @Test
    void anUnresolvableHostIsRetriable() {
        TargetPolicy policy = policy(Map.of(), host -> {
            throw new UnknownHostException(host);
        });

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://owner.example.com/delete"))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("cannot be resolved");
        assertThatThrownBy(() -> policy(Map.of(), host -> List.of())
                        .check("copy.httpCallback.url", "https://owner.example.com/delete"))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("cannot be resolved");
    }

    @Test
    void privateAddressesAllowedByOperatorsAreNotLookedUpAtRegistration() throws UnknownHostException {
        TargetPolicy policy = policy(Map.of("allowed-hosts", "localhost", "allow-private-addresses", "true"), host -> {
            throw new AssertionError("no lookup needed");
        });

        assertThat(policy.check("copy.httpCallback.url", "http://localhost:8080/delete")
                        .getPort())
                .isEqualTo(8080);
        // a call still connects only to what its one lookup returned
        TargetPolicy calling = policy(
                Map.of("allowed-hosts", "localhost", "allow-private-addresses", "true"),
                host -> List.of(ip("127.0.0.2")));
        assertThat(calling.reachableAddresses("localhost")).containsExactly(ip("127.0.0.2"));
    }

    @Test
    void aUrlThatIsNotHttpIsRefused() {
        TargetPolicy policy = policy(Map.of("allow-private-addresses", "true"), host -> List.of());

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "file:///etc/passwd"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("absolute http(s) URL");
    }

    private static TargetPolicy policy(Map<String, String> settings, HostResolver resolver) {
        Map<String, String> all = new HashMap<>(Map.of("allowed-hosts", ALLOWED));
        all.putAll(settings);
        return new TargetPolicy(
                HttpCallbackSettings.from(new StoreConnection("c", StoreKind.HTTP_CALLBACK, all)), resolver);
    }

    private static Arguments row(String address, String range) {
        return Arguments.of(address, range);
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
