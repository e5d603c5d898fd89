package io.erasure.store.redis.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TtlRoundingTest {

    @Test
    void remainingTtlsAreRoundedUpToWholeSeconds() {
        assertThat(ValueReader.ttlSeconds(-1)).isNull();
        assertThat(ValueReader.ttlSeconds(1)).isEqualTo(1);
        assertThat(ValueReader.ttlSeconds(1_000)).isEqualTo(1);
        assertThat(ValueReader.ttlSeconds(3_599_001)).isEqualTo(3_600);
        assertThat(ValueReader.ttlSeconds(Long.MAX_VALUE / 2)).isEqualTo(Integer.MAX_VALUE);
    }
}
