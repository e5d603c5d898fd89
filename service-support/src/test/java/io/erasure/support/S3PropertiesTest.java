package io.erasure.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import org.junit.jupiter.api.Test;

class S3PropertiesTest {

    @Test
    void bucketIsRequired() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new S3Properties(null, "us-east-1", null, null, " ", false))
                .withMessageContaining("erasure.s3.bucket is required");
    }

    @Test
    void credentialsComeInPairs() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new S3Properties(null, "us-east-1", "AK", null, "platform", false))
                .withMessageContaining("erasure.s3.access-key and erasure.s3.secret-key go together");
    }

    @Test
    void blankValuesMeanUnset() {
        S3Properties properties = new S3Properties(URI.create(""), "us-east-1", "", "", "platform", false);

        assertThat(properties.endpoint()).isNull();
        assertThat(properties.hasStaticCredentials()).isFalse();
    }

    @Test
    void theSecretStaysOutOfLogs() {
        assertThat(new S3Properties(null, "us-east-1", "AK", "very-secret", "platform", false).toString())
                .contains("AK")
                .doesNotContain("very-secret");
    }
}
