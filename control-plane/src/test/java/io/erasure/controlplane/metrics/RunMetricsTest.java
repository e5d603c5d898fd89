package io.erasure.controlplane.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RunMetricsTest {

    @Test
    void aCompletedRunsTimeToDeleteLandsInTheObjectivesBuckets() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RunMetrics metrics = new RunMetrics(null, Clock.systemUTC(), meters);
        Instant validated = Instant.parse("2026-12-01T00:00:00Z");

        metrics.runCompleted("profiles", validated, validated.plus(Duration.ofHours(5)));
        metrics.runCompleted("profiles", validated, validated.plus(Duration.ofHours(30)));
        metrics.runCompleted("profiles", validated, validated.minusSeconds(1)); // a skewed clock counts as no time

        Timer timer =
                meters.get(RunMetrics.TIME_TO_DELETE).tag("dataset", "profiles").timer();
        assertThat(timer.count()).isEqualTo(3);
        assertThat(timer.max(TimeUnit.HOURS)).isEqualTo(30);
        CountAtBucket[] buckets = timer.takeSnapshot().histogramCounts();
        assertThat(Arrays.stream(buckets).map(b -> (long) b.bucket(TimeUnit.HOURS) + "h:" + (long) b.count()))
                .containsExactly("1h:1", "6h:2", "24h:2", "72h:3", "168h:3");
    }
}
