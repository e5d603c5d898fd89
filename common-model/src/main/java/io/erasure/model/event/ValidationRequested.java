package io.erasure.model.event;

import io.erasure.model.check.Require;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.identifier.IdentifierSource;

/**
 * Command: re-check the run's candidates against live state, including whether each identifier is
 * still deletable in the live {@code identifierSource} (frozen with the run, like the spec).
 * {@code totalRows} (from the backup) is what the dataset's fraction limit is measured against.
 */
public record ValidationRequested(
        DatasetSpec spec,
        IdentifierSource identifierSource,
        CutoffTimestamp cutoff,
        long candidateCount,
        long totalRows,
        boolean dryRun)
        implements EventPayload, RunScoped {

    public ValidationRequested {
        Require.nonNull("spec", spec);
        Require.nonNull("identifierSource", identifierSource);
        if (!identifierSource.name().equals(spec.identifierSource())) {
            throw new IllegalArgumentException("identifierSource '" + identifierSource.name() + "' is not the source '"
                    + spec.identifierSource() + "' named by dataset '" + spec.name() + "'");
        }
        Require.nonNull("cutoff", cutoff);
        Require.nonNegative("candidateCount", candidateCount);
        Require.nonNegative("totalRows", totalRows);
    }
}
