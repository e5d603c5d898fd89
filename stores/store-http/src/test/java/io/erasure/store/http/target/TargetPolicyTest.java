package io.erasure.store.http.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.store.spi.StoreException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TargetPolicyTest {

    private static final List<String> ALLOWED = List.of("owner.example.com", "*.corp.example.com");

    @Test
    void hostsMatchExactlyOrAsSubdomainsOfASuffixPattern() {
        TargetPolicy policy = new TargetPolicy("c", ALLOWED, false, host -> List.of());

        assertThat(policy.isAllowedHost("owner.example.com")).isTrue();
        assertThat(policy.isAllowedHost("a.corp.example.com")).isTrue();
        assertThat(policy.isAllowedHost("a.b.corp.example.com")).isTrue();
        assertThat(policy.isAllowedHost("corp.example.com")).isFalse();
        assertThat(policy.isAllowedHost("evilcorp.example.com")).isFalse();
        assertThat(policy.isAllowedHost("owner.example.com.evil.org")).isFalse();
        assertThat(policy.isAllowedHost("x.owner.example.com")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.8.8.8", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "0.0.0.0", "0.1.2.3", "224.0.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1",
            "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::10.0.0.1"})
    void nonPublicAddressesAreNamed(String literal) throws UnknownHostException {
        assertThat(TargetPolicy.forbiddenKind(InetAddress.getByName(literal))).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "172.32.0.1", "93.184.216.34", "2001:4860:4860::8888"})
    void publicAddressesPass(String literal) throws UnknownHostException {
        assertThat(TargetPolicy.forbiddenKind(InetAddress.getByName(literal))).isEmpty();
    }

    @Test
    void everyResolvedAddressMustBePublic() {
        Map<String, List<InetAddress>> dns = Map.of("owner.example.com", List.of(ip("93.184.216.34"), ip("10.0.0.7")));
        TargetPolicy policy = new TargetPolicy("c", ALLOWED, false, dns::get);

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://owner.example.com/delete"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("resolves to 10.0.0.7, a private address")
                .hasMessageContaining("erasure.connections.c.allow-private-addresses=true");
    }

    @Test
    void anUnlistedHostIsRefusedBeforeAnyLookup() {
        TargetPolicy policy = new TargetPolicy("c", ALLOWED, false, host -> {
            throw new AssertionError("no lookup for a host that is not allowed");
        });

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://other.example.org/delete"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("https://other.example.org/delete")
                .hasMessageContaining("erasure.connections.c.allowed-hosts");
    }

    @Test
    void anUnresolvableHostIsRetriable() {
        TargetPolicy policy = new TargetPolicy("c", ALLOWED, false, host -> {
            throw new UnknownHostException(host);
        });

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "https://owner.example.com/delete"))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("cannot be resolved");
    }

    @Test
    void privateAddressesAllowedByOperatorsAreNotLookedUp() {
        TargetPolicy policy = new TargetPolicy("c", List.of("localhost"), true, host -> {
            throw new AssertionError("no lookup needed");
        });

        assertThat(policy.check("copy.httpCallback.url", "http://localhost:8080/delete").getPort()).isEqualTo(8080);
    }

    @Test
    void aUrlThatIsNotHttpIsRefused() {
        TargetPolicy policy = new TargetPolicy("c", ALLOWED, true, host -> List.of());

        assertThatThrownBy(() -> policy.check("copy.httpCallback.url", "file:///etc/passwd"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("absolute http(s) URL");
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
