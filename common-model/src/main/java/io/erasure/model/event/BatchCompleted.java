package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/**
 * Event: one batch of a task ran. The control plane counts these against the run's task count;
 * for forward deletion (no run) {@code requestId} says which request it belongs to.
 */
public record BatchCompleted(String dataset, String taskId, String batchId, String requestId, BatchCounts counts,
                             ReadBackResult readBack, long stillPresent) implements EventPayload {

    public BatchCompleted {
        Names.datasetName("dataset", dataset);
        Names.opaqueId("taskId", taskId);
        Names.opaqueId("batchId", batchId);
        if (requestId != null) {
            Names.opaqueId("requestId", requestId);
        }
        Require.nonNull("counts", counts);
        Require.nonNull("readBack", readBack);
        Require.nonNegative("stillPresent", stillPresent);
        Require.that((readBack == ReadBackResult.ROWS_REMAINING) == (stillPresent > 0),
                "readBack " + readBack + " does not agree with stillPresent=" + stillPresent
                        + ": ROWS_REMAINING exactly when stillPresent > 0");
    }
}
