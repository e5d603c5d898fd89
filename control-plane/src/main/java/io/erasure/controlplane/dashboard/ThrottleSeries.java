package io.erasure.controlplane.dashboard;

import io.erasure.controlplane.dashboard.ThrottleHistory.Point;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One store's samples from every deletion replica as a series of time buckets, weighted by time. A sample holds its
 * replica's values from when it was taken until the replica's next sample, or for {@value #HOLD_INTERVALS} sample
 * intervals at most (a replica that stopped, such as the old pod of a rolling deploy, stops counting half an
 * interval after its next sample was due). A bucket's rate and limit
 * are the replicas' held values integrated over the bucket and divided by its length, so:
 *
 * <ul>
 *   <li>a replica replaced mid-bucket (a rolling deploy gives the new pod a new name) counts for the part of the
 *       bucket it was there, not twice;</li>
 *   <li>a sample landing just after a bucket boundary does not make the bucket dip;</li>
 *   <li>the current bucket is divided by its elapsed part only, so the newest point is not too low.</li>
 * </ul>
 * The utilization, the store's own signal, is the highest any replica held in the bucket. A bucket no replica covered
 * is a gap: one null point ends the line before it. Pure; not thread-safe.
 */
final class ThrottleSeries {

    /** How many sample intervals a sample holds at most. */
    static final double HOLD_INTERVALS = 1.5;

    /** One sample of one replica for the store. */
    record Sample(String replica, Instant at, double rate, double limit, double utilization) {}

    private ThrottleSeries() {}

    /**
     * @param samples  the store's samples, ordered by replica and then time, from {@code from} minus the hold on
     * @param from     the window's start
     * @param to       its end (now): nothing is held past it
     * @param step     the bucket length; buckets start at multiples of it since the epoch
     * @param interval the replicas' sample interval
     */
    static List<Point> buckets(List<Sample> samples, Instant from, Instant to, Duration step, Duration interval) {
        long stepMs = step.toMillis();
        long first = Math.floorDiv(from.toEpochMilli(), stepMs) * stepMs;
        int count = (int) Math.max(0, (to.toEpochMilli() - first + stepMs - 1) / stepMs);
        double[] rateArea = new double[count];
        double[] limitArea = new double[count];
        double[] covered = new double[count];
        double[] utilization = new double[count];
        long holdMs = (long) (interval.toMillis() * HOLD_INTERVALS);
        long end = to.toEpochMilli();
        for (int i = 0; i < samples.size(); i++) {
            Sample sample = samples.get(i);
            long start = sample.at().toEpochMilli();
            long until = Math.min(start + holdMs, end);
            if (i + 1 < samples.size() && samples.get(i + 1).replica().equals(sample.replica())) {
                until = Math.min(until, samples.get(i + 1).at().toEpochMilli());
            }
            for (long at = Math.max(start, from.toEpochMilli()); at < until; ) {
                int bucket = (int) ((at - first) / stepMs);
                if (bucket >= count) {
                    break;
                }
                long bucketEnd = first + (bucket + 1) * stepMs;
                long overlap = Math.min(until, bucketEnd) - at;
                rateArea[bucket] += sample.rate() * overlap;
                limitArea[bucket] += sample.limit() * overlap;
                covered[bucket] += overlap;
                utilization[bucket] = Math.max(utilization[bucket], sample.utilization());
                at = bucketEnd;
            }
        }
        List<Point> points = new ArrayList<>();
        for (int bucket = 0; bucket < count; bucket++) {
            long start = first + bucket * stepMs;
            Instant t = Instant.ofEpochMilli(Math.max(start, from.toEpochMilli()));
            if (covered[bucket] == 0) {
                if (!points.isEmpty() && points.get(points.size() - 1).rate() != null) {
                    points.add(new Point(t, null, null, null));
                }
                continue;
            }
            // the bucket's length so far: the current one has not ended
            double span = Math.min(start + stepMs, end) - Math.max(start, from.toEpochMilli());
            points.add(new Point(t, rateArea[bucket] / span, limitArea[bucket] / span, utilization[bucket]));
        }
        if (!points.isEmpty() && points.get(points.size() - 1).rate() == null) {
            points.remove(points.size() - 1); // nothing after it to break the line from
        }
        return points;
    }
}
