package io.erasure.model.run;

import io.erasure.model.check.Require;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One deletion run of one dataset, with the spec it froze when it started. The cut-off is null
 * until the audit has chosen the backup it works from.
 */
public record Run(
        RunId id,
        String datasetName,
        DatasetSpec spec,
        RunState state,
        boolean dryRun,
        RunTrigger trigger,
        @Nullable CutoffTimestamp cutoff,
        Instant createdAt) {

    private static final Set<RunState> DRY_RUN_NEVER = EnumSet.of(
            RunState.AWAITING_APPROVAL, RunState.AUTHORIZED, RunState.DELETING, RunState.VERIFYING, RunState.COMPLETED);

    public Run {
        Require.nonNull("run.id", id);
        Require.nonNull("run.spec", spec);
        Require.nonBlank("run.datasetName", datasetName);
        if (!datasetName.equals(spec.name())) {
            throw new IllegalArgumentException(
                    "run.datasetName '" + datasetName + "' must equal the frozen spec's name '" + spec.name() + "'");
        }
        Require.nonNull("run.state", state);
        Require.nonNull("run.trigger", trigger);
        Require.nonNull("run.createdAt", createdAt);
    }

    /** A new run in PENDING with no cut-off yet. */
    public static Run start(RunId id, DatasetSpec spec, boolean dryRun, RunTrigger trigger, Instant createdAt) {
        return new Run(id, spec.name(), spec, RunState.PENDING, dryRun, trigger, null, createdAt);
    }

    /** This run in state {@code target}; fails if the state machine does not allow the move. */
    public Run transitionTo(RunState target) {
        if (!state.canTransitionTo(target)) {
            throw new IllegalStateException(
                    "run " + id + " cannot move from " + state + " to " + target + "; allowed next: " + state.next());
        }
        if (dryRun && DRY_RUN_NEVER.contains(target)) {
            throw new IllegalStateException("run " + id + " is a dry-run and must never reach " + target
                    + "; finish it with DRY_RUN_COMPLETED after validation");
        }
        if (!dryRun && target == RunState.DRY_RUN_COMPLETED) {
            throw new IllegalStateException("run " + id + " is not a dry-run and cannot end in DRY_RUN_COMPLETED");
        }
        return new Run(id, datasetName, spec, target, dryRun, trigger, cutoff, createdAt);
    }

    public Run withCutoff(CutoffTimestamp newCutoff) {
        return new Run(id, datasetName, spec, state, dryRun, trigger, Require.nonNull("cutoff", newCutoff), createdAt);
    }
}
