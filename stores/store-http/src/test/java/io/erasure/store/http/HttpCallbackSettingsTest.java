package io.erasure.store.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpCallbackSettingsTest {

    @Test
    void defaultsApplyAndHostsAreReadAsAList() {
        HttpCallbackSettings settings = from(Map.of("allowed-hosts", " Owner.Example.com , *.corp.example.com,"));

        assertThat(settings.allowedHosts()).containsExactly("owner.example.com", "*.corp.example.com");
        assertThat(settings.allowPrivateAddresses()).isFalse();
        assertThat(settings.timeoutMs()).isEqualTo(10_000);
        assertThat(settings.maxAttempts()).isEqualTo(4);
        assertThat(settings.backoffMs()).isEqualTo(200);
        assertThat(settings.maxBatch()).isEqualTo(500);
    }

    @Test
    void theAllowListIsRequired() {
        assertThatThrownBy(() -> from(Map.of("timeout-ms", "100")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("erasure.connections.owners.settings.allowed-hosts");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"*", "https://owner.example.com", "owner.example.com:443", "*.*.example.com", "a*.example.com"})
    void anAllowListEntryThatIsNotAHostIsRefused(String entry) {
        assertThatThrownBy(() -> from(Map.of("allowed-hosts", entry)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("allowed-hosts");
    }

    @Test
    void allowPrivateAddressesMustBeABoolean() {
        assertThatThrownBy(() -> from(Map.of("allowed-hosts", "h", "allow-private-addresses", "yes")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("true or false");
    }

    @Test
    void allowedAddressesAreReadAsRanges() {
        HttpCallbackSettings settings =
                from(Map.of("allowed-hosts", "h", "allowed-addresses", " 10.20.0.0/16, 127.0.0.1,64:ff9b::/96,"));

        assertThat(settings.allowedAddresses())
                .extracting(range -> range.cidr())
                .containsExactly("10.20.0.0/16", "127.0.0.1", "64:ff9b::/96");
        assertThat(settings.allowedAddresses())
                .extracting(range -> range.prefixLength())
                .containsExactly(16, 32, 96);
        assertThat(from(Map.of("allowed-hosts", "h")).allowedAddresses()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"owner.example.com", "cafe", "10.0.0.0/33", "10.0.0.0/x", "::/129", "10.0.0/8", "*"})
    void anAllowedAddressThatIsNotARangeIsRefusedWithoutALookup(String entry) {
        assertThatThrownBy(() -> from(Map.of("allowed-hosts", "h", "allowed-addresses", entry)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'allowed-addresses' has '" + entry + "'")
                .hasMessageContaining("CIDR form");
    }

    @Test
    void secretsAreReadButNeverPrinted() {
        HttpCallbackSettings settings = from(Map.of("allowed-hosts", "h", "secret.token", "Bearer very-secret-value"));

        assertThat(settings.secrets()).containsEntry("token", "Bearer very-secret-value");
        assertThat(settings.toString()).contains("token").doesNotContain("very-secret-value");
    }

    @Test
    void theSpecKnowsSecretsAndTheirTeamsAndRefusesAnythingElse() {
        StoreConnection secrets = new StoreConnection(
                "owners",
                StoreKind.HTTP_CALLBACK,
                Map.of("allowed-hosts", "h", "secret.token", "x", "secret-teams.token", "billing"));
        HttpCallbackSettings.SPEC.check(secrets);

        assertThatThrownBy(() -> HttpCallbackSettings.SPEC.check(
                        new StoreConnection("owners", StoreKind.HTTP_CALLBACK, Map.of("allowed-host", "h"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'allowed-host' (did you mean 'allowed-hosts'?)");
    }

    private static HttpCallbackSettings from(Map<String, String> settings) {
        return HttpCallbackSettings.from(new StoreConnection("owners", StoreKind.HTTP_CALLBACK, settings));
    }
}
