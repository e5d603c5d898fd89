package io.erasure.store.cassandra.purge;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.cassandra.purge.SSTableTombstones.Estimate;
import io.erasure.store.spi.PurgeStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What the purge status says at each point of a tombstone's life. */
class PurgeTrackerTest {

    private static final Instant DELETED = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration GC_GRACE = Duration.ofDays(10);
    private static final Estimate NONE_LEFT = new Estimate(0.0, 1000, 0, 3, "127.0.0.1:7199");
    private static final Estimate SOME_LEFT = new Estimate(0.02, 1000, 20, 3, "127.0.0.1:7199");

    @Test
    void beforeGcGraceHasPassedTheTombstonesAreOnDiskWhateverTheStatisticsSay() {
        PurgeStatus status =
                PurgeTracker.judge("demo.t", DELETED, GC_GRACE, NONE_LEFT, DELETED.plus(Duration.ofDays(9)));

        assertThat(status.purgeableAt()).isEqualTo(Instant.parse("2030-01-11T00:00:00Z"));
        assertThat(status.stillOnDisk()).isTrue();
        assertThat(status.explanation()).startsWith("not purgeable before 2030-01-11T00:00:00Z");
    }

    @Test
    void withinTheMinuteTheStatisticsRoundToTheyStillCountAsOnDisk() {
        PurgeStatus status = PurgeTracker.judge(
                "demo.t", DELETED, GC_GRACE, NONE_LEFT, DELETED.plus(GC_GRACE).plusSeconds(30));

        assertThat(status.stillOnDisk()).isTrue();
        assertThat(status.explanation()).contains("only from 2030-01-11T00:01:00Z");
    }

    @Test
    void afterGcGracePurgeableTombstonesLeftInTheSSTablesAreStillOnDisk() {
        PurgeStatus status =
                PurgeTracker.judge("demo.t", DELETED, GC_GRACE, SOME_LEFT, DELETED.plus(Duration.ofDays(11)));

        assertThat(status.stillOnDisk()).isTrue();
        assertThat(status.tombstonesOnDisk()).isEqualTo(20);
        assertThat(status.explanation()).contains("about 20 purgeable tombstones are still in 3 SSTables of demo.t");
    }

    @Test
    void afterGcGraceWithNoPurgeableTombstoneLeftTheyAreGone() {
        PurgeStatus status =
                PurgeTracker.judge("demo.t", DELETED, GC_GRACE, NONE_LEFT, DELETED.plus(Duration.ofDays(11)));

        assertThat(status.stillOnDisk()).isFalse();
        assertThat(status.tombstonesOnDisk()).isZero();
        assertThat(status.explanation()).endsWith("compaction has removed them");
    }

    @Test
    void cellsAreCountedFromTheHistogramBucketsAtTheirUpperOffsets() {
        long[] buckets = new long[20];
        buckets[0] = 15; // offset 1
        buckets[4] = 20; // offset 5
        buckets[8] = 2; // offset 10
        buckets[11] = 1; // offset 17

        assertThat(SSTableTombstones.cells(buckets)).isEqualTo(15 + 100 + 20 + 17);
    }
}
