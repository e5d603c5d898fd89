package io.erasure.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisSettingsTest {

    @Test
    void hostAndPortWithDefaults() {
        RedisSettings settings = RedisSettings.from(connection(Map.of("host", "cache.internal")));

        assertThat(settings.address()).isEqualTo("redis://cache.internal:6379/0");
        assertThat(settings.pipelineSize()).isEqualTo(500);
        assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.keyPrefixes()).isEmpty();
        assertThat(settings.uri().getPassword()).isNull();
    }

    @Test
    void aUriWithSettingsThatOverrideIt() {
        RedisSettings settings = RedisSettings.from(connection(Map.of(
                "uri",
                "rediss://app:secret@cache.internal:6380/2",
                "database",
                "3",
                "timeout-ms",
                "250",
                "pipeline-size",
                "100",
                "key-prefixes",
                " profile: ,session:,")));

        assertThat(settings.address()).isEqualTo("rediss://cache.internal:6380/3");
        assertThat(settings.uri().getUsername()).isEqualTo("app");
        assertThat(new String(settings.uri().getPassword())).isEqualTo("secret");
        assertThat(settings.timeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(settings.pipelineSize()).isEqualTo(100);
        assertThat(settings.keyPrefixes()).containsExactly("profile:", "session:");
    }

    @Test
    void thePasswordIsNeverPrinted() {
        RedisSettings settings = RedisSettings.from(connection(Map.of("host", "cache.internal", "password", "s3cret")));

        assertThat(settings.toString()).doesNotContain("s3cret").contains("password=***");
        assertThatThrownBy(() -> RedisSettings.from(connection(Map.of("uri", "http://user:s3cret@cache.internal"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("setting 'uri' must look like redis://")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void badValuesNameTheSetting() {
        assertThatThrownBy(() -> RedisSettings.from(connection(Map.of())))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("erasure.connections.cache.settings.host");
        assertThatThrownBy(() -> RedisSettings.from(connection(Map.of("host", "h", "pipeline-size", "5000"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'pipeline-size' must be within 1..1000");
        assertThatThrownBy(() -> RedisSettings.from(connection(Map.of("host", "h", "port", "70000"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'port' must be within 1..65535");
        assertThatThrownBy(() -> RedisSettings.from(connection(Map.of("host", "h", "timeout-ms", "0"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'timeout-ms' must be >= 1");
        assertThatThrownBy(() -> RedisSettings.from(connection(Map.of("host", "h", "database", "-1"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'database' must be >= 0");
    }

    private static StoreConnection connection(Map<String, String> settings) {
        return new StoreConnection("cache", StoreKind.REDIS, settings);
    }
}
