package io.erasure.deletion.execution;

import io.erasure.deletion.control.ControlState;
import io.erasure.deletion.log.LogIngestionLag;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a task may delete now, the one place {@link BatchExecutor} asks: its kill switches (global, its dataset's,
 * its source dataset's for a copy task), its run's cancellation, and the deletion log's ingestion lag. Asked before
 * each batch, while the batch waits for the throttle or its pace, and again right before its delete statements.
 *
 * <p>A stop that lasts longer than the hold hands the poll back to the consumer ({@link DeletionPaused}) instead of
 * blocking it; a cancellation ends the task ({@link Cancelled}).
 */
public class DeletionGate {

    private static final Logger log = LoggerFactory.getLogger(DeletionGate.class);

    private final ControlState control;
    private final LogIngestionLag logLag;
    private final Duration poll;
    private final Duration hold;
    private final Clock clock;

    /**
     * @param poll how often a stopped task looks again
     * @param hold how long a stopped task waits in place before it hands the poll back
     */
    public DeletionGate(ControlState control, LogIngestionLag logLag, Duration poll, Duration hold, Clock clock) {
        this.control = control;
        this.logLag = logLag;
        this.poll = poll;
        this.hold = hold;
        this.clock = clock;
    }

    /** A kill switch of the task's scope is on, or the log's ingestion lags too far behind. */
    boolean mustWait(DeletionTask task) {
        return control.stopped(task.controlScope()) || logLag.tooFarBehind(task.dataset(), task.controlScope());
    }

    /** The task's run was cancelled: nothing more of it is deleted. */
    boolean cancelled(DeletionTask task) {
        return control.cancelled(task.controlScope(), task.runId());
    }

    /** For waits that others run (the throttle, the pacer): true while the task must not go on. */
    BooleanSupplier closed(DeletionTask task) {
        return () -> mustWait(task) || cancelled(task);
    }

    Duration poll() {
        return poll;
    }

    /**
     * Waits, up to the hold, while the task must wait; then hands the poll back ({@link DeletionPaused}) rather than
     * blocking the consumer. Also hands it back once the poll's time budget ({@code handBackAt}) is spent.
     *
     * @throws Cancelled if the task's run is cancelled
     */
    void awaitOpen(DeletionTask task, Instant handBackAt) {
        Instant holdUntil = clock.instant().plus(hold);
        boolean announced = false;
        while (mustWait(task)) {
            if (cancelled(task)) {
                throw new Cancelled();
            }
            if (!announced) {
                log.warn("deletion of {} paused: {}", task.dataset(), reason(task));
                announced = true;
            }
            if (clock.instant().isAfter(holdUntil) || clock.instant().isAfter(handBackAt)) {
                throw new DeletionPaused("deletion of " + task.dataset() + " paused (" + reason(task) + "): task "
                        + task.taskId() + " handed back to the consumer");
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException.Retriable("interrupted while paused", e);
            }
        }
        if (cancelled(task)) {
            throw new Cancelled();
        }
        if (clock.instant().isAfter(handBackAt)) {
            throw new DeletionPaused("the poll's time budget is spent: task " + task.taskId() + " handed back to the"
                    + " consumer before batch of " + task.dataset());
        }
    }

    /** What stopped a batch between its plan and its delete: a cancellation ends the task, anything else pauses it. */
    RuntimeException halted(DeletionTask task) {
        if (cancelled(task)) {
            return new Cancelled();
        }
        return new DeletionPaused("deletion of " + task.dataset() + " paused before its delete (" + reason(task)
                + "): task " + task.taskId() + " handed back to the consumer");
    }

    private String reason(DeletionTask task) {
        return control.stopped(task.controlScope())
                ? control.stopReason(task.controlScope())
                : logLag.why(task.dataset(), task.controlScope());
    }

    /** The task's run was cancelled: nothing more of it is deleted. */
    static final class Cancelled extends RuntimeException {
        Cancelled() {
            super(null, null, false, false);
        }
    }
}
