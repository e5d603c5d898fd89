package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BatchLatencyTest {

    private static final Duration TARGET = Duration.ofMillis(500);

    private final BatchLatency batches = new BatchLatency();

    @Test
    void oneSlowBatchAmongOthersIsNoOverload() {
        for (int i = 0; i < 4; i++) {
            batches.observe(Duration.ofMillis(40));
        }
        batches.observe(Duration.ofSeconds(3));
        assertThat(batches.ratioSinceLastStep(TARGET)).isLessThanOrEqualTo(1);
    }

    @Test
    void mostRecentBatchesSlowIsOverload() {
        for (int i = 0; i < 5; i++) {
            batches.observe(Duration.ofMillis(40));
        }
        for (int i = 0; i < 3; i++) {
            batches.observe(Duration.ofMillis(150));
        }
        assertThat(batches.ratioSinceLastStep(TARGET))
                .as("150 ms against a fastest median of 40 ms")
                .isGreaterThan(1);
    }

    @Test
    void batchesSlowerThanTheTargetAreOverload() {
        batches.observe(Duration.ofSeconds(1));
        assertThat(batches.ratioSinceLastStep(TARGET)).isEqualTo(2.0);
    }

    @Test
    void aStepWithoutNewBatchesHasNoOpinion() {
        batches.observe(Duration.ofSeconds(1));
        assertThat(batches.ratioSinceLastStep(TARGET)).isGreaterThan(1);
        assertThat(batches.ratioSinceLastStep(TARGET)).isZero();
    }
}
