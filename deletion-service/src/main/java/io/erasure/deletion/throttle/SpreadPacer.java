package io.erasure.deletion.throttle;

import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.SpreadWindow;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paces the batches of a run whose dataset asks for its deletion to be spread over a window ({@code spreadOver}, the
 * task's {@link SpreadWindow}). The pace is an upper limit on top of the {@link AdaptiveThrottle}, which still has the
 * last word: a paced batch waits here first and then for its throttle permits, so a run never deletes faster than the
 * throttle allows, and a run still going when its window ends runs at the throttle's rate.
 *
 * <p>The pace is the run's remaining keys over the window's remaining time. The remaining keys are the fleet's
 * ({@link Progress}: what every replica has done of the run), and this replica takes its share of the task partitions
 * of that pace, as the throttle splits its cap. Within the replica the run's batches take consecutive slots of one
 * timeline, whichever shard thread runs them: a batch of n keys is due n / pace after the slot before it. So a run on
 * schedule waits the same before each of its batches and ends at the window's end, one that fell behind (a slow store,
 * a kill switch) waits less, and a slot never ends after the window.
 *
 * <p>A wait ends at once when {@code stop} turns true (kill switch, cancellation), which frees its slot, and never
 * outlasts the poll's hand-back time: the caller then hands the poll back, as for a pause, and the batch keeps its
 * slot for when it is delivered again (were its wait computed anew each time, a batch due after several poll budgets
 * would be pushed back by every hand-back). Thread-safe.
 */
public class SpreadPacer {

    private static final Logger LOG = LoggerFactory.getLogger(SpreadPacer.class);

    /** How many keys of a run's own batches (not its copies') the fleet has done; each batch counts once. */
    @FunctionalInterface
    public interface Progress {
        long keysDone(RunId run, String dataset);
    }

    /** Waits; tests pass one that moves their clock instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        Sleeper THREAD = duration -> Thread.sleep(Math.max(1, duration.toMillis()));

        void sleep(Duration duration) throws InterruptedException;
    }

    /** How a paced wait ended: the batch may go, a stop came, or the poll's time budget ran out first. */
    public enum Outcome {
        GO,
        STOPPED,
        HAND_BACK
    }

    private final Progress progress;
    private final ShardOwnership ownership;
    private final Clock clock;
    private final Sleeper sleeper;
    /** Per run and dataset, where this replica's last reserved slot ends; dropped once the run's window is over. */
    private final Map<String, Timeline> timelines = new HashMap<>();
    /** Slots of batches whose poll was handed back before they were due, by batch id. */
    private final Map<String, Slot> handedBack = new HashMap<>();

    public SpreadPacer(Progress progress, ShardOwnership ownership, Clock clock, Sleeper sleeper) {
        this.progress = progress;
        this.ownership = ownership;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /**
     * Waits until the batch {@code batchId} of {@code keys} keys of {@code task} is due, checking {@code stop} every
     * {@code poll}. A task that is not paced goes at once.
     */
    public Outcome await(
            DeletionTask task, String batchId, int keys, BooleanSupplier stop, Duration poll, Instant handBackAt) {
        if (!task.paced() || keys <= 0) {
            return Outcome.GO;
        }
        Slot slot = reserve(task, batchId, keys);
        while (true) {
            if (stop.getAsBoolean()) {
                release(slot);
                return Outcome.STOPPED;
            }
            Instant now = clock.instant();
            if (!now.isBefore(slot.due())) {
                return Outcome.GO;
            }
            if (!now.isBefore(handBackAt)) {
                keep(batchId, slot);
                return Outcome.HAND_BACK;
            }
            Duration nap = min(poll, Duration.between(now, slot.due()), Duration.between(now, handBackAt));
            try {
                sleeper.sleep(nap);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                release(slot);
                throw new StoreException.Retriable(
                        "interrupted while pacing run " + task.runId() + " of " + task.dataset(), e);
            }
        }
    }

    /**
     * The batch's slot: the one it kept when its poll was handed back, else the next of its run's timeline on this
     * replica; due at once when the window is over.
     */
    Slot reserve(DeletionTask task, String batchId, int keys) {
        SpreadWindow window = task.spread();
        long remaining = window.plannedKeys() - progress.keysDone(task.runId(), task.dataset());
        double share = ownership.share();
        String run = task.runId().value() + "|" + task.dataset();
        synchronized (this) {
            Instant now = clock.instant();
            timelines.values().removeIf(timeline -> !timeline.windowEnd().isAfter(now));
            handedBack.values().removeIf(slot -> !slot.windowEnd().isAfter(now));
            Slot kept = handedBack.remove(batchId);
            if (kept != null) {
                return kept;
            }
            if (!now.isBefore(window.end())) {
                return new Slot(run, now, now, now); // past its window: the throttle alone sets the rate
            }
            Timeline timeline = timelines.get(run);
            Instant from = timeline == null ? now : max(now, timeline.lastDue());
            Duration length = slotLength(Duration.between(now, window.end()), keys, remaining, share);
            Instant due = min(from.plus(length), window.end());
            timelines.put(run, new Timeline(due, window.end()));
            if (timeline == null) {
                LOG.info(
                        "run {} of {} is paced to end by {}: {} of {} keys left, this replica's share {}, a batch of {}"
                                + " keys waits {}",
                        task.runId(),
                        task.dataset(),
                        window.end(),
                        Math.max(remaining, keys),
                        window.plannedKeys(),
                        share,
                        keys,
                        length);
            }
            return new Slot(run, from, due, window.end());
        }
    }

    /**
     * How long a batch of {@code keys} keys takes at this replica's pace: {@code share} of the fleet's remaining keys
     * over the window's remaining time. The batch is one of the remaining keys, so at least its own keys are left, and
     * no slot is longer than what is left of the window.
     */
    static Duration slotLength(Duration windowLeft, int keys, long remainingKeys, double share) {
        if (windowLeft.isNegative() || windowLeft.isZero() || keys <= 0) {
            return Duration.ZERO;
        }
        double left = Math.max(remainingKeys, keys);
        double mine = Math.min(1.0, Math.max(share, 1e-3));
        double nanos = windowLeft.toNanos() * (keys / (left * mine));
        return nanos >= windowLeft.toNanos() ? windowLeft : Duration.ofNanos((long) nanos);
    }

    /** A wait given up (a stop) frees its slot, unless a later slot was reserved after it. */
    private synchronized void release(Slot slot) {
        timelines.computeIfPresent(
                slot.run(),
                (run, timeline) -> timeline.lastDue().equals(slot.due())
                        ? new Timeline(slot.from(), timeline.windowEnd())
                        : timeline);
    }

    private synchronized void keep(String batchId, Slot slot) {
        handedBack.put(batchId, slot);
    }

    /** A batch's place on its run's timeline: from the end of the slot before it to when the batch is due. */
    record Slot(String run, Instant from, Instant due, Instant windowEnd) {}

    private record Timeline(Instant lastDue, Instant windowEnd) {}

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Duration min(Duration a, Duration b, Duration c) {
        Duration ab = a.compareTo(b) <= 0 ? a : b;
        return ab.compareTo(c) <= 0 ? ab : c;
    }
}
