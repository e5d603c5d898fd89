package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Event: the final set is written under {@code finalSetPrefix}. Every candidate is either in the
 * final set or dropped for one reason ({@code droppedByReason}, e.g. {@code newer_than_cutoff},
 * {@code already_absent}), and the constructor checks that the counts add up.
 * {@code exceedsLimit} sends the run to approval.
 *
 * <p>{@code resurrectedCount}: rows of the final set whose key an earlier run or request already deleted
 * (found in the deletion log) and that are live again — zombies, deleted again by this run at its own
 * cut-off; listed under {@code resurrectedKey} (an S3 key, null when there are none).
 *
 * <p>{@code finalSetDigest} is the digest of the final set's manifest ({@code FinalSetManifest}), which the control
 * plane signs when it authorizes the run; null from a validation that predates it (the control plane fails such a run,
 * which has something to delete, asking for validation-service to be upgraded). {@code specDigest} is
 * {@code SpecDigest} (service-support) of the frozen spec validation worked on, which the control plane compares with
 * its run's; null from a validation-service that predates it (refused).
 */
public record ValidationCompleted(
        String dataset,
        long candidateCount,
        long finalCount,
        Map<String, Long> droppedByReason,
        String finalSetPrefix,
        int taskCount,
        boolean exceedsLimit,
        long resurrectedCount,
        @Nullable String resurrectedKey,
        @Nullable String finalSetDigest,
        @Nullable String specDigest)
        implements EventPayload, RunScoped {

    public ValidationCompleted(
            String dataset,
            long candidateCount,
            long finalCount,
            Map<String, Long> droppedByReason,
            String finalSetPrefix,
            int taskCount,
            boolean exceedsLimit) {
        this(
                dataset,
                candidateCount,
                finalCount,
                droppedByReason,
                finalSetPrefix,
                taskCount,
                exceedsLimit,
                0,
                null,
                null,
                null);
    }

    public ValidationCompleted {
        Names.datasetName("dataset", dataset);
        Require.nonNegative("candidateCount", candidateCount);
        Require.nonNegative("finalCount", finalCount);
        droppedByReason = droppedByReason == null ? Map.of() : Require.mapOf("droppedByReason", droppedByReason);
        long dropped = 0;
        for (Map.Entry<String, Long> entry : droppedByReason.entrySet()) {
            dropped += Require.nonNegative("droppedByReason." + entry.getKey(), entry.getValue());
        }
        if (finalCount + dropped != candidateCount) {
            throw new IllegalArgumentException("finalCount (" + finalCount + ") + droppedByReason (" + dropped
                    + ") must equal candidateCount (" + candidateCount + "): every candidate is kept or dropped once");
        }
        Require.nonBlank("finalSetPrefix", finalSetPrefix);
        Require.nonNegative("taskCount", taskCount);
        Require.that(finalCount == 0 || taskCount > 0, "taskCount must be > 0 when the final set is not empty");
        Require.nonNegative("resurrectedCount", resurrectedCount);
        Require.that(
                resurrectedCount <= finalCount,
                "resurrectedCount (" + resurrectedCount
                        + ") counts rows of the final set, so it cannot exceed finalCount (" + finalCount + ")");
        Require.that(
                (resurrectedCount > 0) == (resurrectedKey != null),
                "resurrectedKey must name the list of resurrected keys exactly when resurrectedCount > 0");
    }
}
