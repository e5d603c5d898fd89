package io.erasure.controlplane.run;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.run.RunState;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A run as the control plane keeps it: the frozen spec, the state and its version, counts per step,
 * the time each state was entered ({@code steps}), the approval and failure reasons, and the receipt
 * once completed.
 *
 * @param specRevision       the registry revision of the frozen spec (null for runs started before it was kept)
 * @param batchesCompleted   batches of the run's own dataset counted (copies' batches are not)
 * @param copyTasksPublished copy tasks the run's batches published: the run waits for each of them too
 * @param copyTasksReported  copy tasks that reported a batch or failed for good
 */
public record RunRecord(
        String id,
        String dataset,
        DatasetSpec spec,
        Integer specRevision,
        RunState state,
        int version,
        boolean dryRun,
        String triggeredBy,
        Long cutoffMicros,
        Long totalRows,
        Long candidateCount,
        Long finalCount,
        Integer taskCount,
        long batchesCompleted,
        long copyTasksPublished,
        long copyTasksReported,
        Map<String, Object> counts,
        Map<String, Object> steps,
        String approvalReason,
        String decidedBy,
        String failureReason,
        Map<String, Object> receipt,
        Instant createdAt,
        Instant updatedAt) {

    /** The same run with the counters {@link RunBatches} keeps, as a batch it counted left them. */
    public RunRecord withBatchCounters(BatchCounters counters) {
        return new RunRecord(
                id,
                dataset,
                spec,
                specRevision,
                state,
                version,
                dryRun,
                triggeredBy,
                cutoffMicros,
                totalRows,
                candidateCount,
                finalCount,
                taskCount,
                counters.batchesCompleted(),
                counters.copyTasksPublished(),
                counters.copyTasksReported(),
                counts,
                steps,
                approvalReason,
                decidedBy,
                failureReason,
                receipt,
                createdAt,
                updatedAt);
    }

    /**
     * When the run's rows were known deletable: when its validation ended, the first of its AWAITING_APPROVAL and
     * AUTHORIZED steps; empty for a run that reached neither.
     */
    public Optional<Instant> deletableSince() {
        return Stream.of(RunState.AWAITING_APPROVAL, RunState.AUTHORIZED)
                .map(state -> steps == null ? null : steps.get(state.name()))
                .filter(Objects::nonNull)
                .map(at -> Instant.parse(at.toString()))
                .min(Comparator.naturalOrder());
    }

    /** What a run waits for, as {@code runs} holds it: see the components of the same names above. */
    public record BatchCounters(long batchesCompleted, long copyTasksPublished, long copyTasksReported) {}
}
