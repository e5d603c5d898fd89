package io.erasure.validation.finalset;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.identifier.IdentifierSource;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code runs/<runId>/report.json}: what validation found and decided, with the frozen spec and
 * identifier source the tasks are later built from; for a dry-run, the exact statements that would run.
 *
 * <p>{@code resurrectionCheck} says whether the final set was compared with the deletion log
 * ({@code "checked"}) or not ({@code "not configured"}: then {@code resurrectedCount} 0 means "not
 * looked for"). {@code resurrectedCount} rows of the final set were deleted before and are live again;
 * they are listed at {@code resurrectedKey} (null when there are none).
 *
 * <p>{@code reads} is how many read statements the live checks sent, as charged to the stores' read budgets
 * (identifier source and dataset together), and {@code readsPerCandidate} that over {@code candidateCount}
 * (0 when there were none); a report written before they were counted reads back with both 0.
 *
 * <p>{@code finalSetDigest} is the digest of {@code runs/<runId>/final/manifest.json}, reported to the control plane,
 * which signs it; {@code publishPrefix} is where the keys to publish are: the final set itself, or after a
 * re-validation {@code runs/<runId>/revalidated/} (the authorized final set is never rewritten). Null in a report
 * written before they existed ({@code publishPrefix} null: the final set).
 */
public record ValidationReport(
        String runId,
        DatasetSpec spec,
        IdentifierSource identifierSource,
        Instant validatedAt,
        long cutoffMicros,
        long candidateCount,
        long finalCount,
        Map<String, Long> droppedByReason,
        int taskCount,
        long keyCount,
        boolean exceedsLimit,
        boolean dryRun,
        long plannedStatementCount,
        List<String> plannedStatements,
        String resurrectionCheck,
        long resurrectedCount,
        String resurrectedKey,
        long reads,
        double readsPerCandidate,
        String finalSetDigest,
        String publishPrefix) {

    public ValidationReport {
        droppedByReason = Map.copyOf(droppedByReason);
        plannedStatements = plannedStatements == null ? List.of() : List.copyOf(plannedStatements);
    }
}
