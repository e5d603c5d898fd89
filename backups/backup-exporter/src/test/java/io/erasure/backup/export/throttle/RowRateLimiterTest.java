package io.erasure.backup.export.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RowRateLimiterTest {

    long now = 1_000_000_000L;
    long slept;

    RowRateLimiter limiter(double rowsPerSecond) {
        return new RowRateLimiter(rowsPerSecond, () -> now, nanos -> {
            slept += nanos;
            now += nanos;
        });
    }

    @Test
    void aSteadyReaderIsHeldToTheRate() throws InterruptedException {
        RowRateLimiter limiter = limiter(100);
        for (int i = 0; i < 1_000; i++) {
            limiter.acquire(1);
        }
        assertThat(slept).isEqualTo(10_000_000_000L);
        assertThat(limiter.acquired()).isEqualTo(1_000);
    }

    @Test
    void idleTimeBanksAtMostOneSecondOfRows() throws InterruptedException {
        RowRateLimiter limiter = limiter(100);
        now += 60_000_000_000L;
        for (int i = 0; i < 100; i++) {
            limiter.acquire(1);
        }
        assertThat(slept).isZero();
        limiter.acquire(50);
        assertThat(slept).isEqualTo(500_000_000L);
    }

    @Test
    void theRateMustBePositive() {
        assertThatThrownBy(() -> limiter(0))
                .hasMessage("rowsPerSecond must be > 0 (use unlimited() for no limit), got 0.0");
    }
}
