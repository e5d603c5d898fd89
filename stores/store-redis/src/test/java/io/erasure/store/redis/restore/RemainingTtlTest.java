package io.erasure.store.redis.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RemainingTtlTest {

    private static final Instant DELETED = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void theTtlLeftIsTheTtlReadMinusTheTimeSinceTheDelete() {
        assertThat(ValueRestorer.remainingTtlMillis(3_600, DELETED, DELETED.plusSeconds(600)))
                .isEqualTo(3_000_000);
        assertThat(ValueRestorer.remainingTtlMillis(3_600, DELETED, DELETED.minusSeconds(5)))
                .isEqualTo(3_600_000);
    }

    @Test
    void noTtlStaysNoTtlAndARunOutTtlIsExpired() {
        assertThat(ValueRestorer.remainingTtlMillis(null, DELETED, DELETED.plusSeconds(86_400)))
                .isZero();
        assertThat(ValueRestorer.remainingTtlMillis(60, DELETED, DELETED.plusSeconds(60)))
                .isNegative();
        assertThat(ValueRestorer.remainingTtlMillis(60, DELETED, DELETED.plusSeconds(61)))
                .isNegative();
    }
}
