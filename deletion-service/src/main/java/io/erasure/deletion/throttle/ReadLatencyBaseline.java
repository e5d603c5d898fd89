package io.erasure.deletion.throttle;

import io.erasure.store.spi.LoadSignal.ReadLatency;
import java.time.Instant;
import java.util.OptionalDouble;

/**
 * A store's live read p99 before deletion touched it, learnt from the store's own read-latency windows, and each new
 * window's p99 as a ratio to it. Every window counts once (by its end), however often the signal is read.
 *
 * <p>The baseline follows the p99 (an average over windows) only while deletion is quiet: nothing deleted in the
 * window, or deleting at the throttle's floor. While deleting faster it may only fall, so deletion's own effect on
 * the reads never becomes the yardstick it is measured against. Without a quiet window yet (a replica started
 * mid-run, at its starting rate), the first window is the baseline. Not thread-safe: one control loop uses it.
 */
final class ReadLatencyBaseline {

    /**
     * A window with fewer reads than this from other clients than deletion is not acted on: a p99 of few reads is
     * little more than their maximum, and deletion's own reads alone are no live traffic to protect.
     */
    static final long MIN_READS = 50;
    /** Weight of a new window in the baseline's average. */
    static final double WEIGHT = 0.2;

    private double baselineMillis;
    private double lastP99Millis;
    private Instant lastWindow;

    /**
     * Takes the signal's window if it is new: returns its p99 over the baseline as it was before it (empty when the
     * window was seen already, holds too few reads, or there is no baseline yet), then learns from it.
     */
    OptionalDouble ratio(ReadLatency latency, boolean quiet) {
        if (latency == null || (lastWindow != null && !latency.windowEnd().isAfter(lastWindow))) {
            return OptionalDouble.empty();
        }
        lastWindow = latency.windowEnd();
        if (latency.otherReads() < MIN_READS) {
            return OptionalDouble.empty();
        }
        double p99 = latency.p99Millis();
        lastP99Millis = p99;
        if (baselineMillis <= 0) {
            baselineMillis = p99;
            return OptionalDouble.empty();
        }
        double ratio = p99 / baselineMillis;
        double learnt = baselineMillis + WEIGHT * (p99 - baselineMillis);
        baselineMillis = quiet ? learnt : Math.min(baselineMillis, learnt);
        return OptionalDouble.of(ratio);
    }

    /** The baseline p99 in ms, 0 while unknown. */
    double baselineMillis() {
        return baselineMillis;
    }

    /** The p99 of the last window acted on, in ms. */
    double lastP99Millis() {
        return lastP99Millis;
    }
}
