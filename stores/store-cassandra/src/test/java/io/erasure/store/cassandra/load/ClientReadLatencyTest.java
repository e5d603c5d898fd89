package io.erasure.store.cassandra.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.spi.LoadSignal.ReadLatency;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ClientReadLatencyTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final long[] OFFSETS = ClientReadLatency.bucketOffsets(164);

    private final ClientReadLatency latency = new ClientReadLatency(null, "LOCAL_QUORUM", () -> 0, null);

    @Test
    void theOffsetsAreCassandrasMicrosecondBuckets() {
        assertThat(OFFSETS).startsWith(1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, 20, 24, 29, 35, 42, 50, 60, 72, 86, 103);
    }

    @Test
    void aWindowsP99ComesOnlyFromTheReadsAddedInIt() {
        long[] start = counts(bucket(1_000), 10_000); // a slow past: 10,000 reads of about 1 ms
        assertThat(atOneLevel(start, 0, T0))
                .as("the first reading only starts a window")
                .isNull();

        long[] now = start.clone();
        now[bucket(100)] += 990;
        now[bucket(400)] += 10;
        ReadLatency window = atOneLevel(now, 0, T0.plusSeconds(1));

        assertThat(window.reads()).isEqualTo(1_000);
        assertThat(window.p99Millis()).isEqualTo(OFFSETS[bucket(100)] / 1000.0);
        assertThat(window.windowEnd()).isEqualTo(T0.plusSeconds(1));
    }

    @Test
    void aWindowSaysHowManyOfItsReadsTheAdapterSentItself() {
        long[] counts = new long[165];
        atOneLevel(counts.clone(), 1_000, T0);
        counts[bucket(500)] += 300;
        ReadLatency window = atOneLevel(counts.clone(), 1_250, T0.plusSeconds(1));

        assertThat(window.ownReads()).isEqualTo(250);
        assertThat(window.otherReads()).isEqualTo(50);
    }

    @Test
    void readsAtOtherConsistencyLevelsAreReportedAloneWithoutDeletionsBursts() {
        long[] all = new long[165];
        long[] deletionsLevel = new long[165];
        latency.advance(all.clone(), deletionsLevel.clone(), 0, T0);
        all[bucket(500)] += 1_000; // live reads at LOCAL_ONE
        all[bucket(20_000)] += 3_000; // deletion's, at LOCAL_QUORUM
        deletionsLevel[bucket(20_000)] += 3_000;
        ReadLatency window = latency.advance(all.clone(), deletionsLevel.clone(), 3_000, T0.plusSeconds(1));

        assertThat(window.p99Millis()).isEqualTo(OFFSETS[bucket(500)] / 1000.0);
        assertThat(window.reads()).isEqualTo(1_000);
        assertThat(window.ownReads()).isZero();
    }

    @Test
    void liveReadsMostlyAtDeletionsLevelKeepEveryReadInTheWindow() {
        long[] all = new long[165];
        long[] deletionsLevel = new long[165];
        latency.advance(all.clone(), deletionsLevel.clone(), 0, T0);
        all[bucket(500)] += 100; // a few live reads at LOCAL_ONE
        all[bucket(2_000)] += 1_000; // live reads at LOCAL_QUORUM
        all[bucket(20_000)] += 3_000; // deletion's
        deletionsLevel[bucket(2_000)] += 1_000;
        deletionsLevel[bucket(20_000)] += 3_000;
        ReadLatency window = latency.advance(all.clone(), deletionsLevel.clone(), 3_000, T0.plusSeconds(1));

        assertThat(window.reads()).isEqualTo(4_100);
        assertThat(window.ownReads()).isEqualTo(3_000);
        assertThat(window.p99Millis()).isEqualTo(OFFSETS[bucket(20_000)] / 1000.0);
    }

    @Test
    void aWindowStaysOpenUntilItHoldsEnoughReadsAndTheLastOneIsReportedWithItsOwnEnd() {
        long[] counts = new long[165];
        atOneLevel(counts.clone(), 0, T0);
        counts[bucket(500)] += 200;
        ReadLatency first = atOneLevel(counts.clone(), 0, T0.plusSeconds(1));

        counts[bucket(5_000)] += 10; // too few reads for a p99 of their own yet
        ReadLatency again = atOneLevel(counts.clone(), 0, T0.plusSeconds(2));

        assertThat(again).isSameAs(first);
        counts[bucket(5_000)] += 90;
        ReadLatency second = atOneLevel(counts.clone(), 0, T0.plusSeconds(3));
        assertThat(second.windowEnd()).isEqualTo(T0.plusSeconds(3));
        assertThat(second.reads()).isEqualTo(100);
        assertThat(second.p99Millis()).isGreaterThan(first.p99Millis());
    }

    @Test
    void aWindowWithoutReadsClosesAtItsLongestWithNothingToReport() {
        long[] counts = new long[165];
        atOneLevel(counts.clone(), 0, T0);
        counts[bucket(500)] += 200;
        assertThat(atOneLevel(counts.clone(), 0, T0.plusSeconds(1))).isNotNull();

        assertThat(atOneLevel(
                        counts.clone(), 0, T0.plus(ClientReadLatency.MAX_WINDOW).plusSeconds(1)))
                .isNull();
    }

    @Test
    void countsThatGoBackMeanTheNodeRestartedAndStartAnew() {
        atOneLevel(counts(bucket(500), 1_000), 0, T0);
        assertThat(atOneLevel(new long[165], 0, T0.plusSeconds(1))).isNull();
    }

    /** Every read at the adapter's own consistency level. */
    private ReadLatency atOneLevel(long[] counts, long ownReads, Instant now) {
        return latency.advance(counts, counts.clone(), ownReads, now);
    }

    private static long[] counts(int bucket, long reads) {
        long[] counts = new long[165];
        counts[bucket] = reads;
        return counts;
    }

    private static int bucket(long micros) {
        int i = 0;
        while (OFFSETS[i] < micros) {
            i++;
        }
        return i;
    }
}
