package io.erasure.controlplane.forward;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.forward.TargetConfirmation.Confirmation;
import io.erasure.controlplane.forward.TargetConfirmation.Totals;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class TargetConfirmationTest {

    private final List<String> asked = new ArrayList<>();

    @Test
    void aTargetThisRequestDoesNotDeleteFromIsLeftAsItIs() {
        for (TargetOutcome outcome : List.of(
                TargetOutcome.DELETED,
                TargetOutcome.ANONYMISED,
                TargetOutcome.SNAPSHOT_KEPT,
                TargetOutcome.LEFT_TO_AUDIT,
                TargetOutcome.NOT_GRANTED)) {
            assertThat(confirm(keyed(outcome, 2).reported(1, 1)))
                    .as("%s", outcome)
                    .isEqualTo(new Confirmation.NotDeleting());
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void aKeyedTargetIsPendingUntilEveryKeyAndEveryCopyTaskReported() {
        assertThat(outcome(keyed(TargetOutcome.PENDING, 3).reported(1, 1))).isEqualTo(TargetOutcome.PENDING);
        assertThat(outcome(keyed(TargetOutcome.PENDING, 3).reported(2, 1).copyTasks(2, 1)))
                .isEqualTo(TargetOutcome.PENDING);
        assertThat(confirm(keyed(TargetOutcome.PENDING, 3).reported(2, 1).copyTasks(2, 2)))
                .isEqualTo(new Confirmation.Counted(TargetOutcome.DELETED, null, 3, 2, 1, 0, 0, 2, 2, 3));
        assertThat(asked).as("no failure text is read when none is counted").isEmpty();
    }

    @Test
    void aConfirmedTargetIsDeletedOrAnonymised() {
        Confirmation deleted = confirm(keyed(TargetOutcome.PENDING, 1).reported(0, 1));
        assertThat(((Confirmation.Counted) deleted).confirmed()).isTrue();
        Confirmation anonymised =
                confirm(keyed(TargetOutcome.ROWS_REMAINING, 1).reported(0, 1).anonymise());
        assertThat(anonymised).extracting("outcome").isEqualTo(TargetOutcome.ANONYMISED);
        assertThat(((Confirmation.Counted) anonymised).confirmed()).isTrue();
        Confirmation pending = confirm(keyed(TargetOutcome.PENDING, 2).reported(0, 1));
        assertThat(((Confirmation.Counted) pending).confirmed()).isFalse();
    }

    @Test
    void rowsReadBackAsPresentHereOrInACopyLeaveRowsRemaining() {
        assertThat(confirm(keyed(TargetOutcome.PENDING, 2).reported(1, 1).stillPresent(1, 2)))
                .isEqualTo(new Confirmation.Counted(
                        TargetOutcome.ROWS_REMAINING, "3 rows still present at read-back", 2, 1, 1, 0, 3, 0, 0, 2));
        assertThat(outcome(keyed(TargetOutcome.PENDING, 3).reported(1, 1).stillPresent(1, 0)))
                .as("not before everything reported")
                .isEqualTo(TargetOutcome.PENDING);
    }

    @Test
    void failedBatchesFailTheTargetAtOnceNamingSourceThenCopyFailures() {
        Target failing = keyed(TargetOutcome.PENDING, 5).reported(0, 1).failures(1, 2);
        assertThat(confirm(failing))
                .isEqualTo(new Confirmation.Counted(
                        TargetOutcome.FAILED, "source down; orders--cache: cache down", 1, 0, 1, 0, 0, 0, 0, 5));
        assertThat(asked).containsExactly("source", "copy");
        asked.clear();
        assertThat(confirm(keyed(TargetOutcome.FAILED, 5).failures(0, 1)))
                .extracting("detail")
                .isEqualTo("orders--cache: cache down");
        assertThat(asked).containsExactly("copy");
        asked.clear();
        assertThat(confirm(keyed(TargetOutcome.PENDING, 5).failures(1, 0)))
                .extracting("detail")
                .isEqualTo("source down");
        assertThat(asked).containsExactly("source");
    }

    @Test
    void failedKeysFailTheTargetWithTheirNumber() {
        assertThat(confirm(keyed(TargetOutcome.PENDING, 4).reported(3, 1).failedKeys(2)))
                .extracting("outcome", "detail")
                .containsExactly(TargetOutcome.FAILED, "2 keys failed");
    }

    @Test
    void aLookupTargetWaitsForEveryLookupAndThenForTheKeysTheyReported() {
        assertThat(confirm(lookup(2).lookups(1, 0, 0)))
                .as("one lookup has not reported")
                .isEqualTo(new Confirmation.Counted(TargetOutcome.PENDING, null, 0, 0, 0, 0, 0, 0, 0, 0));
        assertThat(confirm(lookup(2).lookups(2, 4, 0).reported(2, 1)))
                .isEqualTo(new Confirmation.Counted(TargetOutcome.PENDING, null, 3, 2, 1, 0, 0, 0, 0, 4));
        assertThat(confirm(lookup(2).lookups(2, 4, 0).reported(3, 1)))
                .isEqualTo(new Confirmation.Counted(TargetOutcome.DELETED, null, 4, 3, 1, 0, 0, 0, 0, 4));
        assertThat(confirm(lookup(2).lookups(2, 0, 0)))
                .as("the lookups found nothing")
                .isEqualTo(new Confirmation.Counted(TargetOutcome.DELETED, null, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void aRefusedLookupLeavesTheTargetToTheAuditWithTheStoresReason() {
        assertThat(confirm(lookup(2).lookups(1, 0, 1)))
                .isEqualTo(new Confirmation.LeftToAudit("left to the nightly audit: column not indexed"));
        assertThat(asked).containsExactly("refusals");
    }

    @Test
    void aRefusedLookupOfAnAnonymisingTargetFailsItForGood() {
        assertThat(confirm(lookup(2).lookups(1, 0, 1).anonymise().failures(1, 1)))
                .isEqualTo(new Confirmation.CannotAnonymise("cannot be anonymised: column not indexed"));
        assertThat(asked).as("the refusal decides; no failure text is read").containsExactly("refusals");
    }

    @Test
    void aKeyedTargetIgnoresLookupRefusals() {
        assertThat(outcome(keyed(TargetOutcome.PENDING, 1).reported(0, 1).lookups(0, 0, 1)))
                .isEqualTo(TargetOutcome.DELETED);
        assertThat(asked).isEmpty();
    }

    private Confirmation confirm(Target target) {
        return TargetConfirmation.of(
                target.totals(),
                text("refusals", "column not indexed"),
                text("source", "source down"),
                text("copy", "orders--cache: cache down"));
    }

    private TargetOutcome outcome(Target target) {
        return ((Confirmation.Counted) confirm(target)).outcome();
    }

    private Supplier<String> text(String name, String text) {
        return () -> {
            asked.add(name);
            return text;
        };
    }

    private static Target keyed(TargetOutcome outcome, long expectedKeys) {
        Target target = new Target();
        target.outcome = outcome;
        target.expectedKeys = expectedKeys;
        return target;
    }

    private static Target lookup(long lookupTasks) {
        Target target = new Target();
        target.lookup = true;
        target.lookupTasks = lookupTasks;
        return target;
    }

    /** A target's totals, as its batches would leave them. */
    private static final class Target {
        TargetOutcome outcome = TargetOutcome.PENDING;
        boolean anonymise;
        boolean lookup;
        long lookupTasks;
        long expectedKeys;
        long lookupsReported;
        long lookupKeys;
        long lookupRefusals;
        long deleted;
        long skippedNewer;
        long failedKeys;
        long stillPresent;
        long copyTasks;
        long copyTasksReported;
        long copyStillPresent;
        long failures;
        long copyFailures;

        Target anonymise() {
            anonymise = true;
            return this;
        }

        Target reported(long deleted, long skippedNewer) {
            this.deleted = deleted;
            this.skippedNewer = skippedNewer;
            return this;
        }

        Target failedKeys(long keys) {
            failedKeys = keys;
            return this;
        }

        Target stillPresent(long own, long copies) {
            stillPresent = own;
            copyStillPresent = copies;
            return this;
        }

        Target copyTasks(long published, long reported) {
            copyTasks = published;
            copyTasksReported = reported;
            return this;
        }

        Target failures(long source, long copies) {
            failures = source;
            copyFailures = copies;
            return this;
        }

        Target lookups(long reported, long keys, long refusals) {
            lookupsReported = reported;
            lookupKeys = keys;
            lookupRefusals = refusals;
            return this;
        }

        Totals totals() {
            return new Totals(
                    outcome,
                    anonymise,
                    lookup,
                    lookupTasks,
                    expectedKeys,
                    lookupsReported,
                    lookupKeys,
                    lookupRefusals,
                    deleted + skippedNewer + failedKeys,
                    deleted,
                    skippedNewer,
                    0,
                    failedKeys,
                    stillPresent,
                    copyTasks,
                    copyTasksReported,
                    copyStillPresent,
                    failures,
                    copyFailures);
        }
    }
}
