package io.erasure.deletion.throttle;

/**
 * Additive increase, multiplicative decrease of a deletion rate from a store's utilization: above the
 * target (1 − headroom), or when batches are slower than the latency target, the rate is cut by a
 * factor; below it the rate grows by a step, up to the cap. Pure arithmetic, so it is tested alone.
 */
public record AimdController(double headroom, int increaseStep, double decreaseFactor, int minRate) {

    public double target() {
        return 1 - headroom;
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
        int next;
        if (utilization > target() || latencyRatio > 1) {
            next = (int) Math.floor(rate * decreaseFactor);
        } else {
            next = rate + increaseStep;
        }
        return Math.max(minRate, Math.min(cap, next));
    }
}
