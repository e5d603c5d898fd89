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

    private final SecretHeaders secrets = new SecretHeaders(HttpCallbackSettings.from(new StoreConnection(
            "owners",
            StoreKind.HTTP_CALLBACK,
            Map.of(
                    "allowed-hosts",
                    "owner.example.com",
                    "secret.token",
                    "Bearer abc123xyz",
                    "secret-teams.token",
                    "billing, payments",
                    "secret.unbound",
                    "Bearer nobody"))));

    @Test
    void referencesResolveToTheConfiguredValuesAndPlainValuesStay() {
        assertThat(secrets.resolve(Map.of("Authorization", "secret:token", "X-Team", "billing"), "billing"))
                .containsEntry("Authorization", "Bearer abc123xyz")
                .containsEntry("X-Team", "billing");
    }

    @Test
    void anUnknownSecretNamesTheSettingToAdd() {
        assertThatThrownBy(() -> secrets.resolve(Map.of("X-Api-Key", "secret:api-key"), "billing"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'api-key'")
                .hasMessageContaining("erasure.connections.owners.settings.secret.api-key");
    }

    @Test
    void aSecretIsUsableOnlyByTheTeamsItIsBoundTo() {
        assertThatThrownBy(() -> secrets.resolve(Map.of("Authorization", "secret:token"), "marketing"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("team 'marketing' may not use")
                .hasMessageContaining(
                        "bound to [billing, payments] by erasure.connections.owners.settings.secret-teams.token")
                .hasMessageNotContaining("abc123xyz");
        assertThatThrownBy(() -> secrets.resolve(Map.of("Authorization", "secret:unbound"), "billing"))
                .hasMessageContaining(
                        "no team may: operators bind it with erasure.connections.owners.settings.secret-teams.unbound");
        assertThat(secrets.resolve(Map.of("Authorization", "secret:token"), "payments"))
                .containsEntry("Authorization", "Bearer abc123xyz");
    }

    @Test
    void echoedValuesAreRedactedToTheirReference() {
        assertThat(secrets.redact("you sent Bearer abc123xyz, which is wrong"))
                .isEqualTo("you sent secret:token, which is wrong");
    }
}
