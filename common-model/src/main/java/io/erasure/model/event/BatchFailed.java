package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/** Event: a batch could not run; {@code retryable} says whether redelivery may succeed. */
public record BatchFailed(
        String dataset, String taskId, String batchId, String requestId, String reason, boolean retryable)
        implements EventPayload {

    public BatchFailed {
        Names.datasetName("dataset", dataset);
        Names.opaqueId("taskId", taskId);
        Names.opaqueId("batchId", batchId);
        if (requestId != null) {
            Names.opaqueId("requestId", requestId);
        }
        Require.nonBlank("reason", reason);
    }
}
