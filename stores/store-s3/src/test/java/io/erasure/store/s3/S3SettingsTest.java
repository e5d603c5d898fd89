package io.erasure.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3SettingsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        S3Settings settings = S3Settings.from(connection(Map.of()));

        assertThat(settings.endpoint()).isNull();
        assertThat(settings.accessKey()).isNull();
        assertThat(settings.pathStyle()).isFalse();
        assertThat(settings.retainedBucket()).isNull();
        assertThat(settings.retainedPrefix()).isEqualTo("retained/");
        assertThat(settings.inlineMaxBytes()).isEqualTo(256 * 1024);
        assertThat(settings.maxObjectsPerKey()).isEqualTo(10_000);
        assertThat(settings.keyPrefixes()).isEmpty();
        assertThat(settings.conditionalRequests()).isTrue();
        assertThat(settings.allowVersionedBucket()).isFalse();
    }

    @Test
    void keyPrefixesAreACommaSeparatedList() {
        S3Settings settings = S3Settings.from(connection(Map.of("key-prefixes", " exports/ ,, shared/erasure/")));

        assertThat(settings.keyPrefixes()).containsExactly("exports/", "shared/erasure/");
    }

    @Test
    void halfACredentialIsRefused() {
        assertThatThrownBy(() -> S3Settings.from(connection(Map.of("access-key", "id"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("both 'access-key' and 'secret-key'");
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> S3Settings.from(connection(Map.of("path-style", "yes"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'path-style' must be true or false");
        assertThatThrownBy(() -> S3Settings.from(connection(Map.of("retained-prefix", "retained"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'retained-prefix'");
        assertThatThrownBy(() -> S3Settings.from(connection(Map.of("bucket", "Owner_Bucket"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'bucket' must be an S3 bucket name");
        assertThatThrownBy(() -> S3Settings.from(connection(Map.of("endpoint", "localhost:9000"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'endpoint'");
        assertThatThrownBy(() -> S3Settings.from(connection(Map.of("inline-max-bytes", "0"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'inline-max-bytes' must be >= 1");
    }

    @Test
    void theSecretNeverShowsInToString() {
        S3Settings settings = S3Settings.from(connection(Map.of("access-key", "id", "secret-key", "s3cr3t")));

        assertThat(settings.toString()).doesNotContain("s3cr3t").contains("secretKey=***");
    }

    private static StoreConnection connection(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(Map.of("region", "eu-west-1", "bucket", "owner-exports"));
        settings.putAll(extra);
        return new StoreConnection("exports-s3", StoreKind.S3_OBJECT, settings);
    }
}
