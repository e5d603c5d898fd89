package io.erasure.store.http.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.http.HttpCallbackSettings;
import io.erasure.store.http.target.HostResolver;
import io.erasure.store.http.target.TargetPolicy;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CheckedDnsResolverTest {

    @Test
    void aConnectionGetsTheAddressesItsOwnLookupCheckedAndNoSecondAnswer() throws UnknownHostException {
        AtomicInteger lookups = new AtomicInteger();
        HostResolver rebinding =
                host -> List.of(InetAddress.getByName(lookups.incrementAndGet() == 1 ? "93.184.216.34" : "127.0.0.1"));
        CheckedDnsResolver resolver = new CheckedDnsResolver(new TargetPolicy(settings(), rebinding));

        assertThat(resolver.resolve("owner.example.com")).containsExactly(InetAddress.getByName("93.184.216.34"));
        assertThat(lookups).hasValue(1);
        // the next connection looks up again, and is refused: it never gets the loopback answer
        assertThatThrownBy(() -> resolver.resolve("owner.example.com"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("host 'owner.example.com' resolves to 127.0.0.1, in 127.0.0.0/8 (loopback)");
        assertThat(lookups).hasValue(2);
    }

    @Test
    void aHostWithoutAnAddressIsAnUnknownHostNotAnUnresolvedConnection() {
        CheckedDnsResolver resolver = new CheckedDnsResolver(new TargetPolicy(settings(), host -> List.of()));

        assertThatThrownBy(() -> resolver.resolve("owner.example.com")).isInstanceOf(UnknownHostException.class);
    }

    private static HttpCallbackSettings settings() {
        return HttpCallbackSettings.from(
                new StoreConnection("c", StoreKind.HTTP_CALLBACK, Map.of("allowed-hosts", "owner.example.com")));
    }
}
