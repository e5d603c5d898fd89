package io.erasure.store.http.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.http.HttpCallbackSettings;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretHeadersTest {

    private final SecretHeaders secrets = new SecretHeaders(HttpCallbackSettings.from(new StoreConnection("owners",
            StoreKind.HTTP_CALLBACK, Map.of("allowed-hosts", "owner.example.com", "secret.token", "Bearer abc123xyz"))));

    @Test
    void referencesResolveToTheConfiguredValuesAndPlainValuesStay() {
        assertThat(secrets.resolve(Map.of("Authorization", "secret:token", "X-Team", "billing")))
                .containsEntry("Authorization", "Bearer abc123xyz")
                .containsEntry("X-Team", "billing");
    }

    @Test
    void anUnknownSecretNamesTheSettingToAdd() {
        assertThatThrownBy(() -> secrets.resolve(Map.of("X-Api-Key", "secret:api-key")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'api-key'")
                .hasMessageContaining("erasure.connections.owners.secret.api-key");
    }

    @Test
    void echoedValuesAreRedactedToTheirReference() {
        assertThat(secrets.redact("you sent Bearer abc123xyz, which is wrong")).isEqualTo("you sent secret:token, which is wrong");
    }
}
