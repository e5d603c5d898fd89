package io.erasure.controlplane.forward;

import java.util.function.Supplier;

/**
 * Where a forward target stands, worked out from the running totals its batches left ({@link Totals}) without reading
 * or writing anything ({@link ForwardProgress} reads the totals and writes the outcome). A target is DELETED (or
 * ANONYMISED) once its lookups, if any, have all reported, its source batches have reported every key they were to
 * report, and every copy task they published has reported, with nothing failed and no row read back as still present;
 * FAILED as soon as a batch failed for good or a key failed; ROWS_REMAINING when everything reported but rows were read
 * back; PENDING until then. A lookup the store refused (the column is not searchable) leaves the target to the nightly
 * audit instead, or fails it for good if it anonymises, which the audit does not do.
 *
 * <p>The failure and refusal texts, which only failing targets have, are read from their batches: they are given as
 * {@link Supplier}s, asked only when the totals say there are some, so that confirming costs the statements it did.
 */
final class TargetConfirmation {

    private TargetConfirmation() {}

    /**
     * A target's outcome from its running totals. {@code refusals} (the lookups' refusals, joined) is asked only for
     * a lookup target with a refusal; {@code sourceFailures} and {@code copyFailures} (the failures of its own
     * batches and of its copies' batches, joined) only when it counts some, in that order.
     */
    static Confirmation of(
            Totals target, Supplier<String> refusals, Supplier<String> sourceFailures, Supplier<String> copyFailures) {
        if (target.outcome() != TargetOutcome.PENDING
                && target.outcome() != TargetOutcome.ROWS_REMAINING
                && target.outcome() != TargetOutcome.FAILED) {
            return new Confirmation.NotDeleting();
        }
        if (target.lookup() && target.lookupRefusals() > 0) {
            String refused = refusals.get();
            if (target.anonymise()) {
                // runs do not anonymise (they are refused on such a dataset): nobody else will, so the request stays
                // open
                return new Confirmation.CannotAnonymise("cannot be anonymised: " + refused);
            }
            // the store cannot search the column: the nightly audit covers this dataset, as for any unaddressable one
            return new Confirmation.LeftToAudit(TargetPlan.NOT_INDEXED + refused);
        }
        String sourceFailed = target.failures() == 0 ? null : sourceFailures.get();
        String copyFailed = target.copyFailures() == 0 ? null : copyFailures.get();
        long expected = target.lookup() ? target.lookupKeys() : target.expectedKeys();
        long stillPresent = target.stillPresent() + target.copyStillPresent();
        String failures = join(sourceFailed, copyFailed);
        boolean resolved = !target.lookup() || target.lookupsReported() >= target.lookupTasks();
        boolean complete =
                resolved && target.reported() >= expected && target.copyTasksReported() >= target.copyTasks();
        TargetOutcome outcome;
        String detail = null;
        if (failures != null || target.failedKeys() > 0) {
            outcome = TargetOutcome.FAILED;
            detail = failures != null ? failures : target.failedKeys() + " keys failed";
        } else if (!complete) {
            outcome = TargetOutcome.PENDING;
        } else if (stillPresent > 0) {
            outcome = TargetOutcome.ROWS_REMAINING;
            detail = stillPresent + " rows still present at read-back";
        } else {
            outcome = target.anonymise() ? TargetOutcome.ANONYMISED : TargetOutcome.DELETED;
        }
        return new Confirmation.Counted(
                outcome,
                detail,
                target.reported(),
                target.deleted(),
                target.skippedNewer(),
                target.alreadyAbsent(),
                stillPresent,
                target.copyTasks(),
                target.copyTasksReported(),
                expected);
    }

    private static String join(String a, String b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + "; " + b;
    }

    /**
     * A target as its batches left it: its outcome so far, what it does, what it waits for, and the running totals
     * ({@code sum_*} columns) of its batches, of its lookups' reports and of its copies' batches.
     *
     * @param anonymise    its policy clears columns rather than deleting rows
     * @param lookupTasks  the lookups it was published with (a lookup target only)
     * @param expectedKeys the keys a key target waits for (a lookup target waits for {@code lookupKeys})
     * @param lookupKeys   the keys its lookups reported finding
     * @param reported     the keys its counted source batches reported, whatever became of each
     * @param copyTasks    the copy tasks its source batches published
     */
    record Totals(
            TargetOutcome outcome,
            boolean anonymise,
            boolean lookup,
            long lookupTasks,
            long expectedKeys,
            long lookupsReported,
            long lookupKeys,
            long lookupRefusals,
            long reported,
            long deleted,
            long skippedNewer,
            long alreadyAbsent,
            long failedKeys,
            long stillPresent,
            long copyTasks,
            long copyTasksReported,
            long copyStillPresent,
            long failures,
            long copyFailures) {}

    /** What becomes of a target: see {@link #of}. */
    sealed interface Confirmation {

        /** The target is none this request deletes from (left to the audit, kept, not granted, or done): unchanged. */
        record NotDeleting() implements Confirmation {}

        /**
         * A lookup was refused and the target anonymises: FAILED with {@code detail}, and it stays blocking, so the
         * request stays open.
         */
        record CannotAnonymise(String detail) implements Confirmation {}

        /** A lookup was refused: the target is LEFT_TO_AUDIT with {@code detail}, and confirmed. */
        record LeftToAudit(String detail) implements Confirmation {}

        /**
         * The target's outcome from its totals, with the totals it shows.
         *
         * @param stillPresent rows read back as present, of its own dataset and of its copies
         * @param expectedKeys the keys it waits for: for a lookup target, those its lookups reported
         */
        record Counted(
                TargetOutcome outcome,
                String detail,
                long reported,
                long deleted,
                long skippedNewer,
                long alreadyAbsent,
                long stillPresent,
                long copyTasksExpected,
                long copyTasksReported,
                long expectedKeys)
                implements Confirmation {

            /** The request no longer waits for it: DELETED or ANONYMISED. */
            boolean confirmed() {
                return outcome == TargetOutcome.DELETED || outcome == TargetOutcome.ANONYMISED;
            }
        }
    }
}
