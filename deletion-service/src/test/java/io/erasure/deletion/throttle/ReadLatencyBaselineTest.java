package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.spi.LoadSignal.ReadLatency;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReadLatencyBaselineTest {

    private final ReadLatencyBaseline baseline = new ReadLatencyBaseline();
    private int window;

    @Test
    void theFirstWindowIsTheBaselineAndLaterOnesAreRatiosToIt() {
        assertThat(baseline.ratio(window(2.0), true)).isEmpty();
        assertThat(baseline.ratio(window(3.0), false)).hasValue(1.5);
    }

    @Test
    void aWindowSeenBeforeCountsOnce() {
        baseline.ratio(window(2.0), true);
        ReadLatency slow = window(4.0);
        assertThat(baseline.ratio(slow, false)).hasValue(2.0);
        assertThat(baseline.ratio(slow, false)).isEmpty();
        assertThat(baseline.ratio(null, false)).isEmpty();
    }

    @Test
    void whileQuietTheBaselineFollowsTheReadsBothWays() {
        baseline.ratio(window(2.0), true);
        for (int i = 0; i < 40; i++) {
            baseline.ratio(window(3.0), true);
        }
        assertThat(baseline.baselineMillis()).isBetween(2.99, 3.0);
        for (int i = 0; i < 40; i++) {
            baseline.ratio(window(1.0), true);
        }
        assertThat(baseline.baselineMillis()).isBetween(1.0, 1.01);
    }

    @Test
    void whileDeletingTheBaselineMayOnlyFall() {
        baseline.ratio(window(2.0), true);
        for (int i = 0; i < 40; i++) {
            baseline.ratio(window(2.5), false);
        }
        assertThat(baseline.baselineMillis()).isEqualTo(2.0);
        baseline.ratio(window(1.0), false);
        assertThat(baseline.baselineMillis()).isLessThan(2.0);
    }

    private ReadLatency window(double p99) {
        return new ReadLatency(p99, 1_000, Instant.EPOCH.plusSeconds(++window));
    }
}
