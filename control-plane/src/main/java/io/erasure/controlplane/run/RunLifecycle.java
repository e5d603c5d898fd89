package io.erasure.controlplane.run;

import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.run.RunState;
import io.erasure.model.trust.EventSeals;
import io.erasure.support.trust.SpecDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The decisions {@link RunProgress} takes about a run, from the run as it holds it and the event it applies: whether
 * the event is the run's at all, what follows a validation, and whether the run is finished and how. Nothing here
 * reads or writes the database or sends anything; what a decision needs from the database it is given, and what is
 * needed only on some branches (the hold reason, the copies' failures) it is given as a {@link Supplier} that it asks
 * only on those branches, so a decision costs no more statements than it did next to the SQL.
 */
final class RunLifecycle {

    /**
     * The reason a run fails when its validation has rows to delete but no final-set digest to authorize them by.
     */
    static final String NO_FINAL_SET_DIGEST = "validation reported no final-set digest: the validation-service that"
            + " validated this run predates signed authorizations, so its tasks could never be checked; upgrade"
            + " validation-service and start a new run";

    private RunLifecycle() {}

    /**
     * Why a validly sealed {@code payload} is not {@code run}'s: another dataset, a copy the
     * run's spec does not have, or an audit or validation of another spec than the frozen one (or of none named).
     */
    static Optional<EventSeals.Refusal> notOfRun(RunRecord run, EventPayload payload) {
        String dataset = null;
        if (payload instanceof AuditCompleted p) {
            dataset = p.dataset();
        } else if (payload instanceof AuditFailed p) {
            dataset = p.dataset();
        } else if (payload instanceof ValidationCompleted p) {
            dataset = p.dataset();
        } else if (payload instanceof ValidationFailed p) {
            dataset = p.dataset();
        } else if (payload instanceof TasksPublished p) {
            dataset = p.dataset();
        } else if (payload instanceof BatchCompleted p) {
            dataset = p.ofCopy() ? p.copyOf() : p.dataset();
        } else if (payload instanceof BatchFailed p) {
            dataset = isCopyOf(run, p.dataset()) ? run.dataset() : p.dataset();
        }
        if (dataset == null
                || !dataset.equals(run.dataset())
                || payload instanceof BatchCompleted batch && batch.ofCopy() && !isCopyOf(run, batch.dataset())) {
            return Optional.of(new EventSeals.Refusal(
                    RunEventGate.WRONG_DATASET,
                    "it is a result of dataset '" + dataset
                            + "'"
                            + (payload instanceof BatchCompleted b && b.ofCopy() ? " (copy '" + b.dataset() + "')" : "")
                            + ", not of run " + run.id() + "'s dataset '" + run.dataset() + "' or one of its copies"));
        }
        String specDigest = payload instanceof AuditCompleted audit
                ? audit.specDigest()
                : payload instanceof ValidationCompleted validation ? validation.specDigest() : null;
        if (payload instanceof AuditCompleted || payload instanceof ValidationCompleted) {
            String frozen = SpecDigest.of(run.spec());
            if (!frozen.equals(specDigest)) {
                return Optional.of(new EventSeals.Refusal(
                        RunEventGate.WRONG_SPEC,
                        specDigest == null
                                ? "it names no spec digest (its producer predates sealed run events: upgrade it), so it"
                                        + " cannot be told to be of run " + run.id() + "'s frozen spec"
                                : "it is a result of spec " + specDigest + ", not of the spec run " + run.id()
                                        + " froze (" + frozen + ")"));
            }
        }
        return Optional.empty();
    }

    /** True when {@code dataset} is the view name of one of {@code run}'s copies. */
    static boolean isCopyOf(RunRecord run, String dataset) {
        return copyOf(run, dataset).isPresent();
    }

    /** The copy of {@code run}'s spec whose view name is {@code dataset}, if any. */
    static Optional<DatasetCopy> copyOf(RunRecord run, String dataset) {
        return run.spec().copies().stream()
                .filter(copy -> copy.viewName(run.dataset()).equals(dataset))
                .findFirst();
    }

    /**
     * What follows {@code validation} of {@code run} (a VALIDATING run): a dry run is done; a final set with rows but
     * no digest cannot be authorized, so the run fails; a run the four-eyes rules hold waits for an OPERATOR
     * ({@code holdReason}, asked only for a run that is neither); otherwise it is authorized, with nothing to delete
     * when the final set is empty.
     */
    static AfterValidation afterValidation(
            RunRecord run, ValidationCompleted validation, Supplier<Optional<String>> holdReason) {
        if (run.dryRun()) {
            return new AfterValidation.DryRunDone();
        }
        if (validation.finalCount() > 0
                && (validation.finalSetDigest() == null
                        || validation.finalSetDigest().isBlank())) {
            // nothing could be authorized: the deletion service checks every task against the digest's final set
            return new AfterValidation.Fail(NO_FINAL_SET_DIGEST);
        }
        Optional<String> hold = holdReason.get();
        if (hold.isPresent()) {
            return new AfterValidation.Hold(hold.get());
        }
        return validation.finalCount() == 0
                ? new AfterValidation.AuthorizeNothingToDelete()
                : new AfterValidation.Authorize();
    }

    /** What follows a validation: see {@link #afterValidation}. */
    sealed interface AfterValidation {

        /** A dry run stops at its validation: DRY_RUN_COMPLETED, with its receipt. */
        record DryRunDone() implements AfterValidation {}

        /** The run fails for {@code reason}. */
        record Fail(String reason) implements AfterValidation {}

        /** The run waits for an OPERATOR's approval, for {@code reason}. */
        record Hold(String reason) implements AfterValidation {}

        /** The run is authorized, but its final set is empty: no tasks will come, so it goes on to DELETING at once. */
        record AuthorizeNothingToDelete() implements AfterValidation {}

        /** The run is authorized and its authorization sent, for its tasks to be published. */
        record Authorize() implements AfterValidation {}
    }

    /**
     * Whether {@code run} is finished: once, DELETING, every published task and every copy task it led to has
     * reported, it completes, or fails if a copy failed for good ({@code failures}, asked only then), with
     * {@link #copiesFailed}'s reason.
     */
    static Finish finish(RunRecord run, Supplier<List<BatchFailure>> failures) {
        if (run.state() != RunState.DELETING
                || run.taskCount() == null
                || run.batchesCompleted() < run.taskCount()
                || run.copyTasksReported() < run.copyTasksPublished()) {
            return new Finish.NotYet();
        }
        return copiesFailed(run, failures.get())
                .<Finish>map(Finish.FailCopies::new)
                .orElseGet(Finish.Complete::new);
    }

    /** Whether a run is finished: see {@link #finish}. */
    sealed interface Finish {

        /** Something has not reported yet, or the run is not DELETING. */
        record NotYet() implements Finish {}

        /** Everything reported and no copy failed: the run is verified, its receipt issued, and it completes. */
        record Complete() implements Finish {}

        /** Everything reported but copies failed for good: the run fails for {@code reason}, with every count kept. */
        record FailCopies(String reason) implements Finish {}
    }

    /** Why the run's copies failed, naming each failed copy and its first error; empty if none did. */
    static Optional<String> copiesFailed(RunRecord run, List<BatchFailure> failures) {
        List<String> reasons = new ArrayList<>();
        CopyTotals.of(run, Map.of(), failures).forEach((name, copy) -> {
            if (!copy.failedBatches().isEmpty()) {
                BatchFailure first = copy.failedBatches().get(0);
                reasons.add("copy '" + name + "' (" + copy.dataset() + ") failed: " + first.reason()
                        + (copy.failedBatches().size() == 1
                                ? ""
                                : " (and " + (copy.failedBatches().size() - 1) + " more of its batches)"));
            }
        });
        return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
    }
}
