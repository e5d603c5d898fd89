package io.erasure.store.redis.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.store.redis.TestRedis;
import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatasetKeysTest {

    @Test
    void keysAreTheTemplateRenderedWithTheKeyValues() {
        DatasetKeys keys = DatasetKeys.check(
                TestRedis.spec("sessions", "session:{user_id}:{device}", "user_id", "device"), List.of(), "cache");

        assertThat(keys.keysOf(List.of(Map.of("user_id", 7, "device", "web"), Map.of("user_id", 7L, "device", "a*b?"))))
                .containsExactly("session:7:web", "session:7:a*b?");
    }

    @Test
    void theLiteralPrefixIsTheTextBeforeTheFirstPlaceholder() {
        assertThat(DatasetKeys.literalPrefix("profile:v2:{customer_id}:{region}"))
                .isEqualTo("profile:v2:");
        assertThat(DatasetKeys.literalPrefix("{customer_id}:profile")).isEmpty();
    }

    @Test
    void theKeyPrefixGuardComparesLiteralPrefixes() {
        List<String> allowed = List.of("profile:");

        DatasetKeys.check(TestRedis.spec("profiles", "profile:v2:{id}", "id"), allowed, "cache");
        assertThatThrownBy(() -> DatasetKeys.check(TestRedis.spec("profiles", "prof{id}", "id"), allowed, "cache"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining(
                        "key template 'prof{id}', outside the key prefixes that connection 'cache' may delete"
                                + " from [profile:]");
    }
}
