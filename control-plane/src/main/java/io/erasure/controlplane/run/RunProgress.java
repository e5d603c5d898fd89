package io.erasure.controlplane.run;

import io.erasure.controlplane.metrics.RunMetrics;
import io.erasure.controlplane.run.RunLifecycle.AfterValidation;
import io.erasure.controlplane.run.RunLifecycle.Finish;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.run.RunState;
import io.erasure.model.trust.EventSeals;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Moves runs by the services' events on {@code erasure.run.events}. Each event is applied once
 * (redeliveries are counted in {@code processed_events}); an event that arrives for a state the run
 * has already left is stale and ignored, and batch results are counted per batch id whatever their
 * order, so duplicated and reordered events are harmless.
 *
 * <p>Before anything else, an event must be sealed by a key trusted for its producer's role ({@link RunEventGate}), and
 * belong to its run: the run's dataset (or, for a batch, one of its copies), and for an audit or a validation the spec
 * the run froze ({@code specDigest}). Anything else is refused, counted and changes nothing.
 *
 * <p>What an event means for its run (whether it is the run's, what follows a validation, whether the run is finished
 * and how) is {@link RunLifecycle}'s to decide: this class loads the run, asks, and writes what was decided.
 */
@Service
public class RunProgress {

    private static final String RECORD_EVENT = """
            INSERT INTO processed_events (event_id, event_type, run_id, received_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (event_id) DO NOTHING""";

    private static final Logger log = LoggerFactory.getLogger(RunProgress.class);

    private final RunStore runs;
    private final RunCommands commands;
    private final RunBatches batches;
    private final RunReceipts receipts;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final RunApprovals approvals;
    private final RunEventGate gate;
    private final RunMetrics metrics;

    public RunProgress(
            RunStore runs,
            RunBatches batches,
            RunCommands commands,
            RunReceipts receipts,
            JdbcTemplate jdbc,
            Clock clock,
            RunApprovals approvals,
            RunEventGate gate,
            RunMetrics metrics) {
        this.metrics = metrics;
        this.approvals = approvals;
        this.gate = gate;
        this.runs = runs;
        this.batches = batches;
        this.commands = commands;
        this.receipts = receipts;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    @Transactional
    public void apply(EventEnvelope event) {
        if (event.runId() == null) {
            return; // forward-deletion batches belong to requests, not runs
        }
        // first the seal, then whether it is this run's: a refused event is not even recorded as applied
        if (!gate.admit(event)) {
            return;
        }
        RunRecord run = runs.lock(event.runId()).orElse(null);
        if (run == null) {
            log.warn("{} for unknown run {} ignored", event.eventType(), event.runId());
            return;
        }
        Optional<EventSeals.Refusal> foreign = RunLifecycle.notOfRun(run, event.payload());
        if (foreign.isPresent()) {
            gate.refuse(event, foreign.get().reason(), foreign.get().detail());
            return;
        }
        if (!firstDelivery(event)) {
            log.debug("event {} ({}) already applied; counted the redelivery", event.eventId(), event.eventType());
            return;
        }
        var payload = event.payload();
        if (payload instanceof AuditCompleted audit) {
            auditCompleted(run, audit);
        } else if (payload instanceof AuditFailed failed) {
            fail(run, "audit failed: " + failed.reason());
        } else if (payload instanceof ValidationCompleted validation) {
            validationCompleted(run, validation);
        } else if (payload instanceof ValidationFailed failed) {
            fail(run, "validation failed: " + failed.reason());
        } else if (payload instanceof TasksPublished published) {
            tasksPublished(run, published);
        } else if (payload instanceof BatchCompleted batch) {
            batchCompleted(run, batch);
        } else if (payload instanceof BatchFailed failed) {
            batchFailed(run, failed);
        } else {
            log.debug("{} is not a run event; ignored", event.eventType());
        }
    }

    private void auditCompleted(RunRecord run, AuditCompleted audit) {
        if (run.state() != RunState.AUDITING) {
            return;
        }
        runs.recordAudit(
                run.id(),
                audit.cutoff().micros(),
                audit.rowsScanned(),
                audit.candidateCount(),
                new AuditCounts(
                        audit.snapshot(), audit.rowsScanned(), audit.candidateCount(), audit.deletedNotPurged()));
        if (runs.move(run, RunState.VALIDATING)) {
            commands.send(
                    run.id(),
                    new ValidationRequested(
                            run.spec(),
                            runs.identifierSource(run.id()),
                            audit.cutoff(),
                            audit.candidateCount(),
                            audit.rowsScanned(),
                            run.dryRun()));
        }
    }

    /** Records what the validation found, then does what {@link RunLifecycle#afterValidation} decides. */
    private void validationCompleted(RunRecord run, ValidationCompleted validation) {
        if (run.state() != RunState.VALIDATING) {
            return;
        }
        runs.recordValidation(
                run.id(),
                validation.finalCount(),
                validation.taskCount(),
                new ValidationCounts(
                        validation.candidateCount(),
                        validation.finalCount(),
                        validation.droppedByReason(),
                        validation.finalSetPrefix(),
                        validation.exceedsLimit(),
                        validation.resurrectedCount(),
                        validation.resurrectedKey(),
                        validation.finalSetDigest()));
        AfterValidation next =
                RunLifecycle.afterValidation(run, validation, () -> approvals.holdReason(run, validation));
        if (next instanceof AfterValidation.DryRunDone) {
            receipts.issue(moveTo(run, RunState.DRY_RUN_COMPLETED), RunState.DRY_RUN_COMPLETED);
        } else if (next instanceof AfterValidation.Fail failure) {
            fail(run, failure.reason());
        } else if (next instanceof AfterValidation.Hold hold) {
            runs.move(run, RunState.AWAITING_APPROVAL);
            runs.recordDecision(run.id(), hold.reason(), null);
        } else if (next instanceof AfterValidation.AuthorizeNothingToDelete) {
            RunRecord authorized = moveTo(run, RunState.AUTHORIZED);
            runs.recordDecision(run.id(), null, "control-plane");
            // nothing to delete: no tasks will come
            finishIfAllBatchesDone(moveTo(authorized, RunState.DELETING));
        } else { // AfterValidation.Authorize
            runs.move(run, RunState.AUTHORIZED);
            runs.recordDecision(run.id(), null, "control-plane");
            commands.authorize(reload(run), DeletionAuthorized.Basis.UNDER_LIMIT, "control-plane");
        }
    }

    /**
     * The tasks actually published are what the run waits for: validation may have re-validated a
     * final set older than 24 h, so this count replaces the one validation first reported.
     */
    private void tasksPublished(RunRecord run, TasksPublished published) {
        if (run.state() != RunState.AUTHORIZED) {
            return;
        }
        runs.recordTasks(run.id(), published.taskCount(), published.keyCount());
        finishIfAllBatchesDone(moveTo(run, RunState.DELETING));
    }

    private void batchCompleted(RunRecord run, BatchCompleted batch) {
        Optional<RunRecord.BatchCounters> counted = batches.addCompleted(run.id(), run.dataset(), batch);
        if (counted.isEmpty()) {
            finishIfAllBatchesDone(run); // a batch counted before: nothing changed since the run was locked
            return;
        }
        recordDeletionCounts(run);
        if (!batch.warnings().isEmpty()) {
            runs.recordWarnings(run.id(), batch.warnings());
        }
        // the counters are all that this batch changed of what the decision reads; the receipt reloads the whole run
        finishIfAllBatchesDone(run.withBatchCounters(counted.get()));
    }

    /**
     * A failure redelivery may still fix changes nothing (the task comes again). A copy's batch that
     * failed for good is recorded and fails the run once everything else has reported; any other fails
     * the run at once.
     */
    private void batchFailed(RunRecord run, BatchFailed failed) {
        if (failed.retryable()) {
            return;
        }
        Optional<DatasetCopy> copy = RunLifecycle.copyOf(run, failed.dataset());
        boolean recorded = batches.addFailure(run.id(), failed, copy.isPresent() ? run.dataset() : null);
        if (copy.isEmpty()) {
            fail(run, "batch " + failed.batchId() + " failed: " + failed.reason());
            return;
        }
        if (recorded) {
            recordDeletionCounts(run);
        }
        if (run.state().isTerminal()) {
            log.warn(
                    "copy '{}' of run {} failed after the run ended {}: {}",
                    copy.get().name(),
                    run.id(),
                    run.state(),
                    failed.reason());
        }
        finishIfAllBatchesDone(reload(run));
    }

    /**
     * Once every published task and every copy task it led to has reported (results that arrived
     * before TasksPublished are already counted), the run is verified and its receipt issued. A copy
     * that failed for good fails the run then, with every count kept ({@link RunLifecycle#finish}).
     */
    private void finishIfAllBatchesDone(RunRecord run) {
        Finish finish = RunLifecycle.finish(run, () -> batches.failures(run.id()));
        if (finish instanceof Finish.NotYet) {
            return;
        }
        RunRecord verifying = moveTo(run, RunState.VERIFYING);
        if (finish instanceof Finish.FailCopies copiesFailed) {
            runs.recordFailure(verifying.id(), copiesFailed.reason());
            RunRecord failing = reload(verifying);
            receipts.issue(failing, RunState.FAILED);
            runs.move(failing, RunState.FAILED);
            return;
        }
        receipts.issue(verifying, RunState.COMPLETED);
        if (runs.move(verifying, RunState.COMPLETED)) {
            verifying
                    .deletableSince()
                    .ifPresent(since -> metrics.runCompleted(verifying.dataset(), since, clock.instant()));
        }
    }

    /** The run's counts show the deletion of its own dataset and of each copy as the batches report. */
    private void recordDeletionCounts(RunRecord run) {
        Map<String, BatchTotals> totals = batches.totalsByDataset(run.id());
        runs.recordCounts(
                run.id(),
                new DeletionCounts(
                        totals.getOrDefault(run.dataset(), BatchTotals.NONE),
                        run.spec().copies().isEmpty() ? null : CopyTotals.of(run, totals, batches.failures(run.id()))));
    }

    private void fail(RunRecord run, String reason) {
        if (runs.move(run, RunState.FAILED)) {
            runs.recordFailure(run.id(), reason);
        }
    }

    /**
     * Moves {@code run} to {@code target}: the run as the move left it. A move that did not happen (not expected of a
     * run locked in this transaction) leaves the run as it is now, and what follows goes on with that, as it did before
     * the store returned the moved run.
     */
    private RunRecord moveTo(RunRecord run, RunState target) {
        return runs.moveTo(run, target).orElseGet(() -> reload(run));
    }

    private RunRecord reload(RunRecord run) {
        return runs.find(run.id()).orElseThrow();
    }

    /** Records the event; false if it was applied before (the redelivery is counted). */
    private boolean firstDelivery(EventEnvelope event) {
        int inserted = jdbc.update(
                RECORD_EVENT, event.eventId(), event.eventType(), event.runId(), Timestamp.from(clock.instant()));
        if (inserted == 0) {
            jdbc.update("UPDATE processed_events SET deliveries = deliveries + 1 WHERE event_id = ?", event.eventId());
            return false;
        }
        return true;
    }
}
