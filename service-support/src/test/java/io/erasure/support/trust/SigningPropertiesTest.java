package io.erasure.support.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.trust.Authorization.Kind;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The jars' LOCAL ONLY keys are public: outside erasure.signing.local-keys nothing signs or is trusted with them. */
class SigningPropertiesTest {

    private static final String PRIVATE = "MC4CAQAwBQYDK2VwBCIEIFP9YJnCLRIGnHdmcZEWO06/uijq2IzHGEgltoendJem";
    private static final String PUBLIC = "MCowBQYDK2VwAyEAsWOAPnH82V2jzG5TuiHw8fXB9vlmYSp/EnWP/rP3LlM=";

    @Test
    void aLocalKeySignsOnlyWhileLocalKeysAreOn() {
        assertThat(new SigningProperties("control-plane-local", PRIVATE, Map.of(), true)
                        .signingKey()
                        .keyId())
                .isEqualTo("control-plane-local");
        assertThatThrownBy(() -> new SigningProperties("control-plane-local", PRIVATE, Map.of(), null).signingKey())
                .hasMessageContaining("LOCAL ONLY")
                .hasMessageContaining("ERASURE_SIGNING_PRIVATEKEY");
        assertThat(new SigningProperties("control-plane-1", PRIVATE, Map.of(), false)
                        .signingKey()
                        .keyId())
                .isEqualTo("control-plane-1");
        assertThatThrownBy(() -> new SigningProperties(null, null, Map.of(), false).signingKey())
                .hasMessageContaining("erasure.signing.key-id is required");
    }

    @Test
    void localTrustedKeysAreLeftOutUnlessLocalKeysAreOn() {
        Map<String, SigningProperties.Trusted> keys = Map.of(
                "control-plane-local", new SigningProperties.Trusted(PUBLIC, Set.of(Kind.RUN)),
                "control-plane-1", new SigningProperties.Trusted(PUBLIC, Set.of(Kind.RUN, Kind.CONTROL)));
        assertThat(new SigningProperties(null, null, keys, false).trusted().grants())
                .containsOnlyKeys("control-plane-1");
        assertThat(new SigningProperties(null, null, keys, true).trusted().grants())
                .containsOnlyKeys("control-plane-1", "control-plane-local");
        assertThatThrownBy(() -> new SigningProperties(
                                null, null, Map.of("x-1", new SigningProperties.Trusted(PUBLIC, Set.of())), false)
                        .trusted())
                .hasMessageContaining("erasure.signing.trusted-keys.x-1.grants is required");
    }
}
