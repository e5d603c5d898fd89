package io.erasure.controlplane.run;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.run.RunState;
import java.time.Instant;
import java.util.Map;

/**
 * A run as the control plane keeps it: the frozen spec, the state and its version, counts per step,
 * the time each state was entered ({@code steps}), the approval and failure reasons, and the receipt
 * once completed.
 */
public record RunRecord(String id, String dataset, DatasetSpec spec, RunState state, int version, boolean dryRun,
                        String triggeredBy, Long cutoffMicros, Long totalRows, Long candidateCount, Long finalCount,
                        Integer taskCount, long batchesCompleted, Map<String, Object> counts,
                        Map<String, Object> steps, String approvalReason, String decidedBy, String failureReason,
                        Map<String, Object> receipt, Instant createdAt, Instant updatedAt) {
}
