package io.erasure.model.key;

import static io.erasure.model.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CanonicalKeyTest {

    @Test
    void sortsColumnsAndRendersJson() {
        assertThat(CanonicalKey.render(key("b", "x", "a", 1))).isEqualTo("{\"a\":1,\"b\":\"x\"}");
        assertThat(CanonicalKey.render(key("a", 1, "b", "x"))).isEqualTo(CanonicalKey.render(key("b", "x", "a", 1)));
    }

    @Test
    void rendersValuesAsTheyLookAfterAJsonRoundTrip() {
        UUID id = UUID.fromString("8c5f2c5e-8d1a-4c1e-9d7a-3f2b1c0d9e8f");
        Instant at = Instant.parse("2024-01-31T02:00:00Z");
        assertThat(CanonicalKey.render(key("k", 42)))
                .isEqualTo(CanonicalKey.render(key("k", 42L)))
                .isEqualTo(CanonicalKey.render(key("k", BigInteger.valueOf(42))))
                .isEqualTo(CanonicalKey.render(key("k", 42.0)))
                .isEqualTo(CanonicalKey.render(key("k", new BigDecimal("42.000"))));
        assertThat(CanonicalKey.render(key("k", id))).isEqualTo(CanonicalKey.render(key("k", id.toString())));
        assertThat(CanonicalKey.render(key("k", at))).isEqualTo("{\"k\":\"2024-01-31T02:00:00Z\"}");
        assertThat(CanonicalKey.render(key("k", 0.1f))).isEqualTo("{\"k\":0.1}");
        assertThat(CanonicalKey.render(key("k", List.of(1, "a")))).isEqualTo("{\"k\":[1,\"a\"]}");
    }

    @Test
    void distinguishesStringsFromNumbersAndEscapes() {
        assertThat(CanonicalKey.render(key("k", "42"))).isNotEqualTo(CanonicalKey.render(key("k", 42)));
        assertThat(CanonicalKey.render(key("k", "a\"b\\c\n"))).isEqualTo("{\"k\":\"a\\\"b\\\\c\\n\"}");
    }

    @Test
    void refusesValuesWithoutACanonicalForm() {
        assertThatThrownBy(() -> CanonicalKey.render(key("k", new Object())))
                .hasMessageContaining("java.lang.Object")
                .hasMessageContaining("convert it");
    }

    @Test
    void copyKeepsOrderAndRefusesNullValues() {
        assertThat(CanonicalKey.copyOf("key", key("z", 1, "a", 2)).keySet()).containsExactly("z", "a");
        assertThatThrownBy(() -> CanonicalKey.copyOf("candidate.key", key("user_id", null)))
                .hasMessageStartingWith("candidate.key.user_id must not be null");
        assertThatThrownBy(() -> CanonicalKey.copyOf("candidate.key", Map.of()))
                .hasMessageStartingWith("candidate.key must contain at least one key column");
    }

    @Test
    void deterministicIdsFramePartsSoBoundariesMatter() {
        assertThat(DeterministicId.sha256Hex("ab", "c")).isNotEqualTo(DeterministicId.sha256Hex("a", "bc"));
        assertThat(DeterministicId.sha256Hex("ab", "c"))
                .isEqualTo(DeterministicId.sha256Hex("ab", "c"))
                .hasSize(64);
        assertThat(DeterministicId.nameBasedUuid("x", "y"))
                .isEqualTo(DeterministicId.nameBasedUuid("x", "y"))
                .isNotEqualTo(DeterministicId.nameBasedUuid("x", "z"));
    }
}
