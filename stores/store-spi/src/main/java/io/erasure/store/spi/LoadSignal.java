package io.erasure.store.spi;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A store's load as a utilization in 0..1 (1 = no headroom left), with the parts it was made of
 * (each also normalised to 0..1), e.g. {@code pending_compactions}, {@code mutation_backlog},
 * {@code write_latency} for Cassandra; {@code connections}, {@code lock_waits}, {@code latency} for PostgreSQL.
 * The utilization is the largest part: the busiest resource decides.
 *
 * <p>A store that measures its clients' read latency adds it as {@link #readLatency()} (null when it does not, or
 * when it saw too few reads): the live traffic's own experience, which the deletion throttle keeps within a ratio of
 * its baseline. A utilization of 0 with no read latency means "nothing to report", as for S3 and HTTP callbacks.
 *
 * @param readLatency the store's client read latency over its latest complete window, or null
 */
public record LoadSignal(
        double utilization,
        Map<String, Double> parts,
        Instant measuredAt,
        @Nullable ReadLatency readLatency) {

    public LoadSignal {
        if (!(utilization >= 0 && utilization <= 1)) {
            throw new IllegalArgumentException("utilization must be within 0..1, got " + utilization);
        }
        parts = Map.copyOf(parts);
        Objects.requireNonNull(measuredAt, "measuredAt");
    }

    /** A signal without read latency. */
    public LoadSignal(double utilization, Map<String, Double> parts, Instant measuredAt) {
        this(utilization, parts, measuredAt, null);
    }

    /** This signal with {@code latency} as its read latency (null for none). */
    public LoadSignal withReadLatency(ReadLatency latency) {
        return new LoadSignal(utilization, parts, measuredAt, latency);
    }

    /** {@link #readLatency()}, if the store measured one. */
    public Optional<ReadLatency> liveReadLatency() {
        return Optional.ofNullable(readLatency);
    }

    /**
     * The p99 latency of the store's client reads (all clients: live traffic and deletion's own reads) over one
     * window of time that ended at {@code windowEnd}. Each window is reported with its own end, so a consumer can
     * count every window once however often it asks for the signal.
     *
     * @param p99Millis the 99th percentile, in milliseconds
     * @param reads     how many reads the window holds (a p99 of few reads is little more than their maximum)
     * @param windowEnd when the window closed
     * @param ownReads  how many of them this adapter sent itself (0 when it does not count them): a window made only
     *                  of deletion's own reads has no live traffic to protect
     */
    public record ReadLatency(double p99Millis, long reads, Instant windowEnd, long ownReads) {

        /** A window whose reads the adapter did not tell apart. */
        public ReadLatency(double p99Millis, long reads, Instant windowEnd) {
            this(p99Millis, reads, windowEnd, 0);
        }

        /** The reads of other clients than this adapter: the live traffic, as far as the adapter can tell. */
        public long otherReads() {
            return Math.max(0, reads - ownReads);
        }

        public ReadLatency {
            if (!(p99Millis >= 0) || Double.isInfinite(p99Millis)) {
                throw new IllegalArgumentException("p99Millis must be a finite value >= 0, got " + p99Millis);
            }
            if (reads < 0 || ownReads < 0) {
                throw new IllegalArgumentException("reads and ownReads must be >= 0, got " + reads + ", " + ownReads);
            }
            Objects.requireNonNull(windowEnd, "windowEnd");
        }
    }

    /** The signal made of {@code parts}, each clamped to 0..1; utilization is their maximum. */
    public static LoadSignal of(Map<String, Double> parts, Instant measuredAt) {
        Map<String, Double> clamped = new TreeMap<>();
        parts.forEach((name, value) -> clamped.put(name, clamp(value)));
        double max =
                clamped.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return new LoadSignal(max, clamped, measuredAt);
    }

    /** {@code value / limit}, clamped to 0..1. */
    public static double ratio(double value, double limit) {
        return limit <= 0 ? 1 : clamp(value / limit);
    }

    private static double clamp(Double value) {
        if (value == null || value.isNaN()) {
            return 0;
        }
        return Math.max(0, Math.min(1, value));
    }
}
