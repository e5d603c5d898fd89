package io.erasure.deletion.throttle;

import java.time.Duration;
import java.util.Arrays;

/**
 * Deletion's own view of a store: the latency of its recent delete batches, a secondary signal next to the store's.
 * The median of the last {@value #WINDOW} batches is compared with the latency target and with the fastest median
 * seen lately (slowly forgotten, so a changed workload is relearnt): one slow batch (a GC pause, a loaded host) never
 * moves a median on its own, and the signal speaks only in a control step that follows new batches, so each batch
 * counts once. Thread-safe.
 */
final class BatchLatency {

    static final int WINDOW = 5;
    /** A median this many times the fastest recent one counts as overload. */
    static final double TOLERANCE = 3.0;

    private final long[] recent = new long[WINDOW];
    private int size;
    private int next;
    private int unseen;
    private long bestMedianNanos;

    synchronized void observe(Duration latency) {
        recent[next] = latency.toNanos();
        next = (next + 1) % WINDOW;
        size = Math.min(WINDOW, size + 1);
        unseen++;
        long median = median();
        // the fastest recent median, forgotten by 1 % per batch
        bestMedianNanos = bestMedianNanos == 0 ? median : Math.min(median, bestMedianNanos + bestMedianNanos / 100);
    }

    /**
     * The recent median over the larger of the target and {@link #TOLERANCE}× the fastest median (above 1 is
     * overload), if batches came since the last call; 0 otherwise, meaning no opinion.
     */
    synchronized double ratioSinceLastStep(Duration target) {
        if (unseen == 0) {
            return 0;
        }
        unseen = 0;
        long median = median();
        return Math.max((double) median / target.toNanos(), (double) median / (TOLERANCE * bestMedianNanos));
    }

    private long median() {
        long[] sorted = Arrays.copyOf(recent, size);
        Arrays.sort(sorted);
        return sorted[(size - 1) / 2]; // the lower middle: of two batches, the faster decides
    }
}
