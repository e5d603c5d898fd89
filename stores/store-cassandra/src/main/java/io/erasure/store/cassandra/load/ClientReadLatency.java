package io.erasure.store.cassandra.load;

import io.erasure.store.cassandra.jmx.NodeJmx;
import io.erasure.store.spi.LoadSignal.ReadLatency;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongSupplier;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The p99 of the node's client reads as coordinator ({@code org.apache.cassandra.metrics:type=ClientRequest,scope=Read,
 * name=Latency}) over windows of time, over JMX: what live readers experience, queueing in the node included.
 *
 * <p>The MBean's {@code 99thPercentile} decays with a half-life of a minute, so it still shows a burst a minute after
 * it ended; a throttle steered by it would keep cutting long after the cause was gone. Instead the histogram's
 * cumulative bucket counts (operation {@code values}, the same 1.2-spaced microsecond buckets) are read at each
 * measurement and a window's p99 is taken from the counts added since the window began. A window closes once it is
 * {@link #MIN_WINDOW} old with at least {@link #MIN_READS} reads in it, or {@link #MAX_WINDOW} old (with fewer reads,
 * or none: then there is no latency to report). Until the next window closes the last one is reported again, with its
 * own end, so a consumer counts it once. The counts are read without side effects on the node (unlike the MBean's
 * {@code RecentValues}, which every JMX client would share). Deletion's own reads are kept out where the node allows:
 * it also counts reads per consistency level ({@code scope=Read-LOCAL_QUORUM}, ...), so reads at other levels than
 * the adapter's are other clients' for certain (see {@link #advance}); otherwise the window says how many of its reads
 * the adapter sent itself, so that a window of deletion's own reads alone is not mistaken for live traffic slowed
 * down. Thread-safe.
 */
public final class ClientReadLatency {

    static final Duration MIN_WINDOW = Duration.ofMillis(900);
    static final Duration MAX_WINDOW = Duration.ofSeconds(10);
    static final long MIN_READS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(ClientReadLatency.class);
    private static final ObjectName READ_LATENCY =
            NodeJmx.objectName("org.apache.cassandra.metrics:type=ClientRequest,scope=Read,name=Latency");
    private static final long[] BUCKET_MICROS = bucketOffsets(164);

    private final NodeJmx jmx;
    private final ObjectName ownLevelLatency;
    private final LongSupplier ownReads;
    private final Clock clock;
    private long ownReadsAtStart;
    private long[] windowStart;
    private long[] levelWindowStart;
    private Instant windowStartedAt;
    private ReadLatency last;

    /**
     * @param ownConsistency the consistency level the adapter reads at: the node counts reads per level too, so reads
     *                       at other levels are exactly the other clients' ones
     * @param ownReads       how many reads the adapter has sent so far, to tell them from live traffic in a window
     */
    public ClientReadLatency(NodeJmx jmx, String ownConsistency, LongSupplier ownReads, Clock clock) {
        this.jmx = jmx;
        this.ownLevelLatency = NodeJmx.objectName(
                "org.apache.cassandra.metrics:type=ClientRequest,scope=Read-" + ownConsistency + ",name=Latency");
        this.ownReads = ownReads;
        this.clock = clock;
    }

    /** The latest complete window's p99, or empty (no window closed yet, no reads, or JMX not readable now). */
    public synchronized Optional<ReadLatency> read() {
        long[] counts;
        long[] ownLevel;
        try {
            ownLevel = (long[]) jmx.call(server -> server.invoke(ownLevelLatency, "values", null, null));
            counts = (long[]) jmx.call(server -> server.invoke(READ_LATENCY, "values", null, null));
        } catch (Exception e) {
            LOG.warn("cannot read the client read latency from {}: {}", jmx.describe(), e.toString());
            return Optional.empty();
        }
        return Optional.ofNullable(advance(counts, ownLevel, ownReads.getAsLong(), clock.instant()));
    }

    /**
     * Adds a reading of the cumulative counts of all reads and of those at the adapter's consistency level (read
     * first, so never more than their share of all), and of the adapter's own reads; returns the latest complete
     * window.
     *
     * <p>When reads at other levels than the adapter's make up at least half of the reads it did not send itself
     * (live traffic at its own level, then, is the smaller part), the window's p99 is theirs alone: deletion's reads,
     * bursts of a batch's keys, are not in it. Otherwise it is the p99 of all reads, with the adapter's own count.
     */
    ReadLatency advance(long[] counts, long[] ownLevel, long ownReadsNow, Instant now) {
        if (windowStart == null
                || windowStart.length != counts.length
                || ownLevel.length != counts.length
                || before(counts, windowStart)
                || before(ownLevel, levelWindowStart)) {
            windowStart = counts; // first reading, or the node restarted: start over
            levelWindowStart = ownLevel;
            windowStartedAt = now;
            ownReadsAtStart = ownReadsNow;
            last = null;
            return null;
        }
        Duration age = Duration.between(windowStartedAt, now);
        long[] window = new long[counts.length];
        long[] otherLevels = new long[counts.length];
        long reads = 0;
        long otherLevelReads = 0;
        for (int i = 0; i < counts.length; i++) {
            window[i] = counts[i] - windowStart[i];
            otherLevels[i] = Math.max(0, window[i] - (ownLevel[i] - levelWindowStart[i]));
            reads += window[i];
            otherLevelReads += otherLevels[i];
        }
        boolean enough = reads >= MIN_READS && age.compareTo(MIN_WINDOW) >= 0;
        if (enough || age.compareTo(MAX_WINDOW) >= 0) {
            long own = ownReadsNow - ownReadsAtStart;
            if (otherLevelReads >= MIN_READS && otherLevelReads * 2 >= reads - own) {
                last = new ReadLatency(p99Micros(otherLevels, otherLevelReads) / 1000.0, otherLevelReads, now, 0);
            } else {
                last = reads == 0 ? null : new ReadLatency(p99Micros(window, reads) / 1000.0, reads, now, own);
            }
            windowStart = counts;
            levelWindowStart = ownLevel;
            windowStartedAt = now;
            ownReadsAtStart = ownReadsNow;
        }
        return last;
    }

    /** The upper bound of the bucket holding the 99th percentile read, as Cassandra reports percentiles. */
    static long p99Micros(long[] window, long reads) {
        long rank = (long) Math.ceil(reads * 0.99);
        long seen = 0;
        for (int i = 0; i < window.length; i++) {
            seen += window[i];
            if (seen >= rank) {
                return BUCKET_MICROS[Math.min(i, BUCKET_MICROS.length - 1)];
            }
        }
        return BUCKET_MICROS[BUCKET_MICROS.length - 1];
    }

    private static boolean before(long[] counts, long[] start) {
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < start[i]) {
                return true;
            }
        }
        return false;
    }

    /** Cassandra's {@code EstimatedHistogram} offsets without a zero bucket: 1, 2, 3, ... each about 1.2× the last. */
    static long[] bucketOffsets(int size) {
        long[] offsets = new long[size];
        long last = 1;
        offsets[0] = last;
        for (int i = 1; i < size; i++) {
            long next = Math.round(last * 1.2);
            offsets[i] = next == last ? next + 1 : next;
            last = offsets[i];
        }
        return offsets;
    }
}
