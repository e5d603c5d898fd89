package io.erasure.deletion.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.event.BatchCounts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class DeletionMetricsTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final DeletionMetrics metrics = new DeletionMetrics(meters);

    @Test
    void aBatchCountsItsRowsByOutcomeAndTheKeysItsReadBackStillFound() {
        metrics.batchDone("profiles", "pg-main", new BatchCounts(7, 2, 1, 3), 3, 0, 10);
        metrics.batchDone("profiles", "pg-main", new BatchCounts(5, 0, 0, 0), 0, 0, 5);
        metrics.batchFailed("profiles", 4);

        assertThat(rows("deleted")).isEqualTo(12);
        assertThat(rows("skipped_newer")).isEqualTo(2);
        assertThat(rows("absent")).isEqualTo(1);
        assertThat(rows("failed"))
                .as("a completed batch's failed keys and a failed batch's")
                .isEqualTo(7);
        assertThat(meters.get(DeletionMetrics.READ_BACK_MISSES)
                        .tag("dataset", "profiles")
                        .counter()
                        .count())
                .isEqualTo(3);
        assertThat(meters.get("erasure.deletion.records.logged")
                        .tag("dataset", "profiles")
                        .counter()
                        .count())
                .isEqualTo(15);
    }

    private double rows(String outcome) {
        return meters.get(DeletionMetrics.ROWS)
                .tags("dataset", "profiles", "outcome", outcome)
                .counter()
                .count();
    }
}
