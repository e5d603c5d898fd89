package io.erasure.deletion.execution;

/**
 * Thrown before anything of the current batch is deleted, to hand the poll back to the consumer: a kill switch is
 * on, the deletion log lags too far behind, or the poll has used its time budget. The listener container keeps
 * polling (paused) while it backs off, so the shard stays in its group and no second replica takes its tasks, and
 * it redelivers the tasks afterwards; batches already done are recognised and not applied again.
 */
public final class DeletionPaused extends RuntimeException {

    public DeletionPaused(String message) {
        super(message);
    }
}
