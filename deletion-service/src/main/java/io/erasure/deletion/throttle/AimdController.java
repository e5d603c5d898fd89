package io.erasure.deletion.throttle;

import java.util.Optional;

/**
 * Additive increase, multiplicative decrease of a deletion rate. The store counts as overloaded when its utilization
 * is above the target (1 − headroom), when its live reads' p99 is above {@link #readLatencyLimit()} times their
 * baseline, or when deletion's own batches are slower than their target; then the rate is cut by a factor, otherwise
 * it grows by a step, up to the cap. Below a slow-start threshold (the cap until the store is first overloaded, then
 * the rate that overload was cut to) a rate that deletion fills doubles instead, as TCP's slow start does: a run on
 * an idle store reaches its cap in a few steps, not in cap / step of them. Pure arithmetic, so it is tested alone.
 */
public record AimdController(double headroom, int increaseStep, double decreaseFactor, int minRate) {

    public double target() {
        return 1 - headroom;
    }

    /**
     * How far the live read p99 may rise over its baseline while deleting, as a ratio: the allowance shrinks
     * linearly with the headroom, 1.3 at the default headroom 0.3, 1.21 at 0.5, 1.39 at 0.1, and 1 (none) at 1.
     */
    public double readLatencyLimit() {
        return 1 + (1 - headroom) * 3 / 7;
    }

    /**
     * Whether the store needs deletion to slow down.
     *
     * @param utilization       the store's utilization signal, 0..1
     * @param readLatencyRatio  the live read p99 over its baseline (0 when not known)
     * @param batchLatencyRatio deletion's recent batch latency over its target (above 1 is overload; 0 when not known)
     */
    public boolean overloaded(double utilization, double readLatencyRatio, double batchLatencyRatio) {
        return utilization > target() || readLatencyRatio > readLatencyLimit() || batchLatencyRatio > 1;
    }

    /**
     * Which signal makes the store overloaded, the first of utilization, live read latency and batch latency over its
     * bound ({@link #overloaded}): {@code utilization}, {@code read_latency} or {@code batch_latency}; empty when none
     * is. How operators read a cut ({@code erasure.deletion.throttle.decisions}).
     */
    public Optional<String> overloadedBy(double utilization, double readLatencyRatio, double batchLatencyRatio) {
        if (utilization > target()) {
            return Optional.of("utilization");
        }
        if (readLatencyRatio > readLatencyLimit()) {
            return Optional.of("read_latency");
        }
        return batchLatencyRatio > 1 ? Optional.of("batch_latency") : Optional.empty();
    }

    /**
     * The next rate.
     *
     * @param rate         the current rate (rows/s)
     * @param cap          this replica's share of the static cap
     * @param utilization  the store's utilization signal, 0..1
     * @param latencyRatio observed batch latency / latency target (above 1 is overload)
     */
    public int next(int rate, int cap, double utilization, double latencyRatio) {
        return next(rate, rate, cap, overloaded(utilization, 0, latencyRatio));
    }

    /**
     * The next rate: on overload the factor applies to what deletion actually sent ({@code sent} rows/s, when below
     * the limit), so that a cut slows deletion at once instead of first spending itself on an unused limit.
     */
    public int next(int rate, int sent, int cap, boolean overloaded) {
        return next(rate, sent, cap, overloaded, 0);
    }

    /**
     * The next rate with slow start: while the rate is below {@code slowStartBelow} and deletion sent at least half of
     * it, it doubles (up to that threshold); an unused limit only grows by the step, so an idle store's limit never
     * jumps ahead of what deletion has shown the store can take.
     *
     * @param sent rows/s deletion sent in the step; 0 when it sent nothing (an overload then cuts the rate itself)
     */
    public int next(int rate, int sent, int cap, boolean overloaded, int slowStartBelow) {
        int next;
        if (overloaded) {
            next = (int) Math.floor((sent == 0 ? rate : Math.min(rate, sent)) * decreaseFactor);
        } else if (rate < slowStartBelow && sent * 2L >= rate) {
            next = (int) Math.min(slowStartBelow, Math.max(rate + (long) increaseStep, 2L * rate));
        } else {
            next = rate + increaseStep;
        }
        return Math.max(minRate, Math.min(cap, next));
    }
}
