package io.erasure.deletion.execution;

import io.erasure.model.event.BatchCounts;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;

/**
 * A batch's counts as its read-back found the rows, not as the delete reported them: a store that resolves a
 * concurrent write by last-write-wins (Cassandra) reports every planned row as deleted, yet a row written after
 * the cut-off between the read and the delete is alive afterwards. Each key of the batch is counted once:
 * <ul>
 *   <li>deleted: gone at read-back and deleted by this batch (at most what the delete reported);</li>
 *   <li>already absent: absent at plan time, or gone at read-back without this batch deleting it;</li>
 *   <li>skipped as newer: skipped at plan time, or alive at read-back with a write after the cut-off;</li>
 *   <li>failed: alive at read-back with nothing newer (the delete missed it; also reported as still present).</li>
 * </ul>
 */
final class ReadBackCounts {

    private ReadBackCounts() {}

    static BatchCounts of(DeletePlan plan, DeleteOutcome outcome, long gone, long keptNewer, long stillPresent) {
        long deleted = Math.min(outcome.deleted(), gone);
        return new BatchCounts(
                deleted,
                plan.count(DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF) + keptNewer,
                plan.count(DeletePlan.Action.ABSENT) + (gone - deleted),
                stillPresent);
    }
}
