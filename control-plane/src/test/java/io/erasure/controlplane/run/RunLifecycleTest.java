package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.run.RunLifecycle.AfterValidation;
import io.erasure.controlplane.run.RunLifecycle.Finish;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.run.RunState;
import io.erasure.model.trust.EventSeals;
import io.erasure.support.trust.SpecDigest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RunLifecycleTest {

    private static final String DIGEST = "d".repeat(64);
    private static final DatasetSpec SPEC = spec(List.of(copy("partner"), copy("mirror")));
    private static final String FROZEN = SpecDigest.of(SPEC);

    // ---- notOfRun

    @Test
    void eventsOfTheRunsDatasetAndFrozenSpecAreItsOwn() {
        RunRecord run = run(RunState.DELETING);
        List<EventPayload> own = List.of(
                audit("ledger", FROZEN),
                new AuditFailed("ledger", "no backup"),
                validation("ledger", 0, FROZEN, null),
                new ValidationFailed("ledger", "broken"),
                new TasksPublished("ledger", 1, 1),
                batch("ledger", null),
                batch("ledger--partner", "ledger"),
                new BatchFailed("ledger", "t", "b", null, "boom", false),
                new BatchFailed("ledger--mirror", "t", "b", null, "boom", false));
        for (EventPayload payload : own) {
            assertThat(RunLifecycle.notOfRun(run, payload)).as("%s", payload).isEmpty();
        }
    }

    @Test
    void aResultOfAnotherDatasetIsRefusedNamingBoth() {
        assertThat(RunLifecycle.notOfRun(run(RunState.DELETING), batch("other", null)))
                .contains(new EventSeals.Refusal(
                        RunEventGate.WRONG_DATASET,
                        "it is a result of dataset 'other', not of run run-1's dataset 'ledger' or one of its copies"));
        assertThat(RunLifecycle.notOfRun(
                        run(RunState.DELETING), new BatchFailed("other--partner", "t", "b", null, "x", false)))
                .contains(new EventSeals.Refusal(
                        RunEventGate.WRONG_DATASET,
                        "it is a result of dataset 'other--partner', not of run run-1's dataset 'ledger' or one of"
                                + " its copies"));
    }

    @Test
    void aBatchOfACopyTheSpecDoesNotHaveIsRefusedNamingTheCopy() {
        assertThat(RunLifecycle.notOfRun(run(RunState.DELETING), batch("ledger--elsewhere", "ledger")))
                .contains(new EventSeals.Refusal(
                        RunEventGate.WRONG_DATASET,
                        "it is a result of dataset 'ledger' (copy 'ledger--elsewhere'), not of run run-1's dataset"
                                + " 'ledger' or one of its copies"));
    }

    @Test
    void anAuditOrValidationOfAnotherSpecOrOfNoneNamedIsRefused() {
        RunRecord run = run(RunState.AUDITING);
        String other = "e".repeat(64);
        assertThat(RunLifecycle.notOfRun(run, audit("ledger", other)))
                .contains(new EventSeals.Refusal(
                        RunEventGate.WRONG_SPEC,
                        "it is a result of spec " + other + ", not of the spec run run-1 froze (" + FROZEN + ")"));
        assertThat(RunLifecycle.notOfRun(run, validation("ledger", 0, null, null)))
                .contains(new EventSeals.Refusal(
                        RunEventGate.WRONG_SPEC,
                        "it names no spec digest (its producer predates sealed run events: upgrade it), so it cannot"
                                + " be told to be of run run-1's frozen spec"));
    }

    @Test
    void copiesAreFoundByTheirViewName() {
        RunRecord run = run(RunState.DELETING);
        assertThat(RunLifecycle.isCopyOf(run, "ledger--mirror")).isTrue();
        assertThat(RunLifecycle.isCopyOf(run, "ledger")).isFalse();
        assertThat(RunLifecycle.isCopyOf(run, "mirror")).isFalse();
        assertThat(RunLifecycle.copyOf(run, "ledger--partner").map(DatasetCopy::name))
                .contains("partner");
    }

    // ---- afterValidation

    @Test
    void aDryRunIsDoneWithoutAskingForAHoldReason() {
        AtomicInteger asked = new AtomicInteger();
        Supplier<Optional<String>> hold = () -> {
            asked.incrementAndGet();
            return Optional.of("held");
        };
        assertThat(RunLifecycle.afterValidation(dryRun(), validation("ledger", 5, FROZEN, null), hold))
                .isEqualTo(new AfterValidation.DryRunDone());
        assertThat(asked).hasValue(0);
    }

    @Test
    void rowsWithoutAFinalSetDigestFailTheRunWithoutAskingForAHoldReason() {
        AtomicInteger asked = new AtomicInteger();
        Supplier<Optional<String>> hold = () -> {
            asked.incrementAndGet();
            return Optional.empty();
        };
        AfterValidation expected = new AfterValidation.Fail(
                "validation reported no final-set digest: the validation-service that validated this run predates"
                        + " signed authorizations, so its tasks could never be checked; upgrade validation-service and"
                        + " start a new run");
        RunRecord run = run(RunState.VALIDATING);
        assertThat(RunLifecycle.afterValidation(run, validation("ledger", 5, FROZEN, null), hold))
                .isEqualTo(expected);
        assertThat(RunLifecycle.afterValidation(run, validation("ledger", 5, FROZEN, " "), hold))
                .isEqualTo(expected);
        assertThat(asked).hasValue(0);
    }

    @Test
    void aHoldReasonHoldsTheRunForApproval() {
        assertThat(RunLifecycle.afterValidation(
                        run(RunState.VALIDATING),
                        validation("ledger", 5, FROZEN, DIGEST),
                        () -> Optional.of("first run")))
                .isEqualTo(new AfterValidation.Hold("first run"));
        assertThat(RunLifecycle.afterValidation(
                        run(RunState.VALIDATING), validation("ledger", 0, FROZEN, null), () -> Optional.of("limit")))
                .as("an empty final set needs no digest, but may still be held")
                .isEqualTo(new AfterValidation.Hold("limit"));
    }

    @Test
    void withoutAHoldTheRunIsAuthorizedWithNothingToDeleteOrToDelete() {
        assertThat(RunLifecycle.afterValidation(
                        run(RunState.VALIDATING), validation("ledger", 0, FROZEN, null), Optional::empty))
                .isEqualTo(new AfterValidation.AuthorizeNothingToDelete());
        assertThat(RunLifecycle.afterValidation(
                        run(RunState.VALIDATING), validation("ledger", 5, FROZEN, DIGEST), Optional::empty))
                .isEqualTo(new AfterValidation.Authorize());
    }

    // ---- finish

    @Test
    void aRunIsNotFinishedUntilDeletingAndEveryTaskAndCopyTaskReported() {
        Supplier<List<BatchFailure>> failures = () -> {
            throw new AssertionError("failures are read only once everything reported");
        };
        assertThat(RunLifecycle.finish(run(RunState.AUTHORIZED, 2, 2, 0, 0), failures))
                .isEqualTo(new Finish.NotYet());
        assertThat(RunLifecycle.finish(run(RunState.DELETING, null, 0, 0, 0), failures))
                .as("tasks not published yet")
                .isEqualTo(new Finish.NotYet());
        assertThat(RunLifecycle.finish(run(RunState.DELETING, 2, 1, 0, 0), failures))
                .isEqualTo(new Finish.NotYet());
        assertThat(RunLifecycle.finish(run(RunState.DELETING, 2, 2, 3, 2), failures))
                .isEqualTo(new Finish.NotYet());
    }

    @Test
    void aRunWhoseCopiesDidNotFailCompletes() {
        assertThat(RunLifecycle.finish(run(RunState.DELETING, 2, 2, 3, 3), List::of))
                .isEqualTo(new Finish.Complete());
        assertThat(RunLifecycle.finish(run(RunState.DELETING, 0, 0, 0, 0), List::of))
                .as("nothing to delete")
                .isEqualTo(new Finish.Complete());
        assertThat(RunLifecycle.finish(
                        run(RunState.DELETING, 2, 2, 0, 0), () -> List.of(failure("ledger--gone", "ledger", "lost"))))
                .as("a failure of no copy of the spec")
                .isEqualTo(new Finish.Complete());
    }

    @Test
    void aRunWhoseCopiesFailedFailsNamingEachCopyItsFirstErrorAndHowManyMore() {
        List<BatchFailure> failures = List.of(
                failure("ledger--mirror", "ledger", "mirror down"),
                failure("ledger--partner", "ledger", "partner said 500"),
                failure("ledger--mirror", "ledger", "still down"),
                failure("ledger--mirror", "ledger", "down again"));
        assertThat(RunLifecycle.finish(run(RunState.DELETING, 2, 2, 4, 4), () -> failures))
                .isEqualTo(new Finish.FailCopies(
                        "copy 'partner' (ledger--partner) failed: partner said 500; copy 'mirror' (ledger--mirror)"
                                + " failed: mirror down (and 2 more of its batches)"));
    }

    // ---- fixtures

    @Test
    void aRunsRowsAreDeletableFromTheEndOfItsValidation() {
        RunRecord held = withSteps(
                run(RunState.DELETING),
                Map.of(
                        "VALIDATING", "2026-01-01T00:00:00Z",
                        "AWAITING_APPROVAL", "2026-01-01T01:00:00Z",
                        "AUTHORIZED", "2026-01-02T00:00:00Z"));
        RunRecord authorized = withSteps(
                run(RunState.DELETING),
                Map.of("VALIDATING", "2026-01-01T00:00:00Z", "AUTHORIZED", "2026-01-01T00:30:00Z"));

        assertThat(held.deletableSince())
                .as("held for approval: its rows were known deletable before it was authorized")
                .contains(Instant.parse("2026-01-01T01:00:00Z"));
        assertThat(authorized.deletableSince()).contains(Instant.parse("2026-01-01T00:30:00Z"));
        assertThat(withSteps(run(RunState.VALIDATING), Map.of("VALIDATING", "2026-01-01T00:00:00Z"))
                        .deletableSince())
                .isEmpty();
    }

    private static RunRecord withSteps(RunRecord run, Map<String, Object> steps) {
        return new RunRecord(
                run.id(),
                run.dataset(),
                run.spec(),
                run.specRevision(),
                run.state(),
                run.version(),
                run.dryRun(),
                run.triggeredBy(),
                run.cutoffMicros(),
                run.totalRows(),
                run.candidateCount(),
                run.finalCount(),
                run.taskCount(),
                run.batchesCompleted(),
                run.copyTasksPublished(),
                run.copyTasksReported(),
                run.counts(),
                steps,
                run.approvalReason(),
                run.decidedBy(),
                run.failureReason(),
                run.receipt(),
                run.createdAt(),
                run.updatedAt());
    }

    private static RunRecord run(RunState state) {
        return run(state, null, 0, 0, 0);
    }

    private static RunRecord dryRun() {
        return record(RunState.VALIDATING, true, null, 0, 0, 0);
    }

    private static RunRecord run(
            RunState state, Integer taskCount, long batchesCompleted, long copyPublished, long copyReported) {
        return record(state, false, taskCount, batchesCompleted, copyPublished, copyReported);
    }

    private static RunRecord record(
            RunState state,
            boolean dryRun,
            Integer taskCount,
            long batchesCompleted,
            long copyPublished,
            long copyReported) {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        return new RunRecord(
                "run-1",
                "ledger",
                SPEC,
                1,
                state,
                3,
                dryRun,
                "operator",
                null,
                100L,
                null,
                null,
                taskCount,
                batchesCompleted,
                copyPublished,
                copyReported,
                Map.of(),
                Map.of(),
                null,
                null,
                null,
                null,
                at,
                at);
    }

    private static AuditCompleted audit(String dataset, String specDigest) {
        return new AuditCompleted(
                dataset, "snap-1", CutoffTimestamp.ofMicros(1_000), 10, 5, "candidates/run-1/", specDigest);
    }

    private static ValidationCompleted validation(String dataset, long rows, String specDigest, String finalSetDigest) {
        return new ValidationCompleted(
                dataset,
                rows + 1,
                rows,
                Map.of("already_absent", 1L),
                "final/run-1/",
                rows == 0 ? 0 : 1,
                false,
                0,
                null,
                finalSetDigest,
                specDigest);
    }

    private static BatchCompleted batch(String dataset, String copyOf) {
        return new BatchCompleted(
                dataset, "t", "b", null, new BatchCounts(1, 0, 0, 0), ReadBackResult.CLEAN, 0, copyOf, 0, null);
    }

    private static BatchFailure failure(String dataset, String copyOf, String reason) {
        return new BatchFailure("b", "t", dataset, copyOf, reason, "2026-01-01T00:00:00Z");
    }

    private static DatasetCopy copy(String name) {
        return new DatasetCopy(
                name,
                StoreKind.HTTP_CALLBACK,
                "callbacks",
                new CopyTarget.HttpCallback(
                        "https://partner.example/" + name,
                        "POST",
                        Map.of(),
                        "{\"keys\": {keys}}",
                        List.of("id"),
                        null));
    }

    private static DatasetSpec spec(List<DatasetCopy> copies) {
        return DatasetSpec.builder()
                .name("ledger")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("payments")
                .table("ledger")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation("ledger", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.1))
                .ownerTeam("payments")
                .copies(copies)
                .build();
    }
}
