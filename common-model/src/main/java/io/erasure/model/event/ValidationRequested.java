package io.erasure.model.event;

import io.erasure.model.check.Require;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;

/**
 * Command: re-check the run's candidates against live state. {@code totalRows} (from the backup)
 * is what the dataset's fraction limit is measured against.
 */
public record ValidationRequested(DatasetSpec spec, CutoffTimestamp cutoff, long candidateCount, long totalRows,
                                  boolean dryRun) implements EventPayload, RunScoped {

    public ValidationRequested {
        Require.nonNull("spec", spec);
        Require.nonNull("cutoff", cutoff);
        Require.nonNegative("candidateCount", candidateCount);
        Require.nonNegative("totalRows", totalRows);
    }
}
