package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Event: one batch of a task ran. The control plane counts these against the run's task count;
 * for forward deletion (no run) {@code requestId} says which request it belongs to.
 *
 * @param copyOf     the source dataset when this batch deleted rows of one of its copies, else null
 * @param copyTasks  how many copy tasks this (source) batch published: the run also waits for those
 * @param keysDigest SHA-256 hex over the sorted canonical keys this batch deleted and read back as gone
 *                   (null when none), so a receipt can prove which keys were deleted without listing them
 * @param warnings   what the store found risky but not unsafe enough to refuse (e.g. Cassandra: no repair
 *                   known within gc_grace, more tombstones in a partition than the warning threshold)
 * @param resolution only in events of deletion services that predate {@link LookupResolved}: what a forward lookup
 *                   task resolved, in a batch of zeros. Never written now; the control plane reads it as the
 *                   {@link LookupResolved} it stands for ({@link #asLookupResolved()}), for the events in flight during
 *                   an upgrade
 */
public record BatchCompleted(
        String dataset,
        String taskId,
        String batchId,
        @Nullable String requestId,
        BatchCounts counts,
        ReadBackResult readBack,
        long stillPresent,
        @Nullable String copyOf,
        int copyTasks,
        @Nullable String keysDigest,
        @Nullable List<String> warnings,
        @Nullable LookupResolution resolution)
        implements EventPayload {

    public BatchCompleted(
            String dataset,
            String taskId,
            String batchId,
            @Nullable String requestId,
            BatchCounts counts,
            ReadBackResult readBack,
            long stillPresent,
            @Nullable String copyOf,
            int copyTasks,
            @Nullable String keysDigest,
            @Nullable List<String> warnings) {
        this(
                dataset,
                taskId,
                batchId,
                requestId,
                counts,
                readBack,
                stillPresent,
                copyOf,
                copyTasks,
                keysDigest,
                warnings,
                null);
    }

    public BatchCompleted(
            String dataset,
            String taskId,
            String batchId,
            @Nullable String requestId,
            BatchCounts counts,
            ReadBackResult readBack,
            long stillPresent) {
        this(dataset, taskId, batchId, requestId, counts, readBack, stillPresent, null, 0, null, null);
    }

    public BatchCompleted(
            String dataset,
            String taskId,
            String batchId,
            @Nullable String requestId,
            BatchCounts counts,
            ReadBackResult readBack,
            long stillPresent,
            @Nullable String copyOf,
            int copyTasks,
            @Nullable String keysDigest) {
        this(dataset, taskId, batchId, requestId, counts, readBack, stillPresent, copyOf, copyTasks, keysDigest, null);
    }

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
        Require.that(
                (readBack == ReadBackResult.ROWS_REMAINING) == (stillPresent > 0),
                "readBack " + readBack + " does not agree with stillPresent=" + stillPresent
                        + ": ROWS_REMAINING exactly when stillPresent > 0");
        if (copyOf != null) {
            Names.datasetName("copyOf", copyOf);
            Require.that(copyTasks == 0, "a copy's batch publishes no copy tasks, got copyTasks=" + copyTasks);
        }
        Require.nonNegative("copyTasks", copyTasks);
        Require.that(
                keysDigest == null || keysDigest.matches("[0-9a-f]{64}"),
                "keysDigest must be 64 lower-case hex characters (SHA-256) or null");
        warnings = warnings == null ? List.of() : Require.listOf("warnings", warnings);
        Require.that(
                resolution == null || requestId != null && copyOf == null,
                "only a forward lookup batch of a dataset itself carries a resolution");
    }

    /**
     * The {@link LookupResolved} an older deletion service reported as this batch of zeros, or null for a batch that
     * ran.
     */
    public @Nullable LookupResolved asLookupResolved() {
        return resolution == null
                ? null
                : new LookupResolved(dataset, taskId, batchId, Objects.requireNonNull(requestId), resolution);
    }

    /** True for a batch that deleted from a copy of a dataset rather than from the dataset. */
    public boolean ofCopy() {
        return copyOf != null;
    }
}
