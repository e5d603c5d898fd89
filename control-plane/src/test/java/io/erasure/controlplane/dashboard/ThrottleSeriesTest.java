package io.erasure.controlplane.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.erasure.controlplane.dashboard.ThrottleHistory.Point;
import io.erasure.controlplane.dashboard.ThrottleSeries.Sample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Buckets weighted by time: rolling deploys, drifting samples and the current bucket read as the fleet did. */
class ThrottleSeriesTest {

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant FROM = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void aReplicaReplacedMidBucketCountsOnceNotTwice() {
        List<Sample> samples = new ArrayList<>();
        // the old pod's last sample at 10:00:50, the new pod's first at 10:01:05, both at 100 rows/s
        every(samples, "old-pod/1", FROM.minusSeconds(30), FROM.plusSeconds(50), 100);
        every(samples, "new-pod/1", FROM.plusSeconds(65), FROM.plusSeconds(175), 100);

        List<Point> points = buckets(samples, FROM.plusSeconds(180), Duration.ofSeconds(60));

        assertThat(points).extracting(Point::rate).containsExactly(100.0, 100.0, 100.0);
    }

    @Test
    void samplesDriftingAcrossBucketBoundariesMakeNoDips() {
        List<Sample> samples = new ArrayList<>();
        // 10.3 s apart (a fixed delay after each run), 30 s buckets: two or three samples each
        for (long ms = 0; ms < 300_000; ms += 10_300) {
            samples.add(new Sample("pod/1", FROM.plusMillis(ms), 50, 80, 0.2));
        }

        List<Point> points = buckets(samples, FROM.plusSeconds(300), Duration.ofSeconds(30));

        assertThat(points).hasSize(10).extracting(Point::rate).containsOnly(50.0);
        assertThat(points).extracting(Point::limit).containsOnly(80.0);
    }

    @Test
    void theCurrentBucketIsReadOverItsElapsedPartAndASilentReplicaLeavesAGap() {
        List<Sample> samples = new ArrayList<>();
        every(samples, "pod/1", FROM, FROM.plusSeconds(60), 40);
        // silent from 10:01:00 (its last sample holds 15 s), back at 10:03:00
        every(samples, "pod/1", FROM.plusSeconds(180), FROM.plusSeconds(200), 40);

        List<Point> points = buckets(samples, FROM.plusSeconds(205), Duration.ofSeconds(60));

        assertThat(points)
                .extracting(Point::t)
                .containsExactly(FROM, FROM.plusSeconds(60), FROM.plusSeconds(120), FROM.plusSeconds(180));
        assertThat(points.get(1).rate())
                .as("the last sample held 15 of the bucket's 60 s")
                .isCloseTo(40.0 * 15 / 60, offset(0.001));
        assertThat(points.get(2).rate()).as("nobody reported: a gap").isNull();
        assertThat(points.get(3).rate()).as("25 s elapsed, all of them covered").isEqualTo(40.0);
    }

    private static List<Point> buckets(List<Sample> samples, Instant to, Duration step) {
        samples.sort(Comparator.comparing(Sample::replica).thenComparing(Sample::at));
        return ThrottleSeries.buckets(samples, FROM, to, step, INTERVAL);
    }

    private static void every(List<Sample> samples, String replica, Instant from, Instant to, double rate) {
        for (Instant at = from; !at.isAfter(to); at = at.plus(INTERVAL)) {
            samples.add(new Sample(replica, at, rate, 2 * rate, 0.5));
        }
    }
}
