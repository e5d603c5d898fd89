package io.erasure.controlplane.run;

import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.run.RunState;
import io.erasure.model.trust.EventSeals;
import io.erasure.support.trust.SpecDigest;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
 */
@Service
public class RunProgress {

    private static final Logger log = LoggerFactory.getLogger(RunProgress.class);

    private final RunStore runs;
    private final RunCommands commands;
    private final RunBatches batches;
    private final RunReceipts receipts;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final RunApprovals approvals;
    private final RunEventGate gate;

    public RunProgress(
            RunStore runs,
            RunBatches batches,
            RunCommands commands,
            RunReceipts receipts,
            JdbcTemplate jdbc,
            Clock clock,
            RunApprovals approvals,
            RunEventGate gate) {
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
        Optional<EventSeals.Refusal> foreign = notOfRun(run, event.payload());
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

    /**
     * Why a validly sealed {@code payload} is not {@code run}'s: another dataset, a copy the
     * run's spec does not have, or an audit or validation of another spec than the frozen one (or of none named).
     */
    private static Optional<EventSeals.Refusal> notOfRun(RunRecord run, EventPayload payload) {
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
                                ? "it names no spec digest (its producer predates sealed run events: upgrade it), so it cannot be"
                                        + " told to be of run " + run.id() + "'s frozen spec"
                                : "it is a result of spec " + specDigest + ", not of the spec run " + run.id()
                                        + " froze (" + frozen + ")"));
            }
        }
        return Optional.empty();
    }

    /** True when {@code dataset} is the view name of one of {@code run}'s copies. */
    private static boolean isCopyOf(RunRecord run, String dataset) {
        return run.spec().copies().stream()
                .anyMatch(copy -> copy.viewName(run.dataset()).equals(dataset));
    }

    private void auditCompleted(RunRecord run, AuditCompleted audit) {
        if (run.state() != RunState.AUDITING) {
            return;
        }
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("snapshot", audit.snapshot());
        counts.put("rowsScanned", audit.rowsScanned());
        counts.put("candidates", audit.candidateCount());
        runs.recordAudit(run.id(), audit.cutoff().micros(), audit.rowsScanned(), audit.candidateCount(), counts);
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

    private void validationCompleted(RunRecord run, ValidationCompleted validation) {
        if (run.state() != RunState.VALIDATING) {
            return;
        }
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("candidates", validation.candidateCount());
        counts.put("final", validation.finalCount());
        counts.put("droppedByReason", validation.droppedByReason());
        counts.put("finalSetPrefix", validation.finalSetPrefix());
        counts.put("exceedsLimit", validation.exceedsLimit());
        // zombies: rows an earlier run or request deleted that are live again; this run deletes them again
        counts.put("resurrected", validation.resurrectedCount());
        if (validation.resurrectedKey() != null) {
            counts.put("resurrectedKey", validation.resurrectedKey());
        }
        if (validation.finalSetDigest() != null) {
            counts.put(RunAuthorizer.FINAL_SET_DIGEST, validation.finalSetDigest()); // what the authorization signs
        }
        runs.recordValidation(run.id(), validation.finalCount(), validation.taskCount(), counts);
        if (run.dryRun()) {
            runs.move(run, RunState.DRY_RUN_COMPLETED);
            receipts.issue(reload(run), RunState.DRY_RUN_COMPLETED);
            return;
        }
        if (validation.finalCount() > 0
                && (validation.finalSetDigest() == null
                        || validation.finalSetDigest().isBlank())) {
            // nothing could be authorized: the deletion service checks every task against the digest's final set
            fail(
                    run,
                    "validation reported no final-set digest: the validation-service that validated this run"
                            + " predates signed authorizations, so its tasks could never be checked; upgrade validation-service"
                            + " and start a new run");
            return;
        }
        Optional<String> holdReason = approvals.holdReason(run, validation);
        if (holdReason.isPresent()) {
            runs.move(run, RunState.AWAITING_APPROVAL);
            runs.recordDecision(run.id(), holdReason.get(), null);
            return;
        }
        runs.move(run, RunState.AUTHORIZED);
        runs.recordDecision(run.id(), null, "control-plane");
        if (validation.finalCount() == 0) {
            // nothing to delete: no tasks will come
            RunRecord authorized = reload(run);
            runs.move(authorized, RunState.DELETING);
            finishIfAllBatchesDone(reload(run));
        } else {
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
        runs.move(run, RunState.DELETING);
        finishIfAllBatchesDone(reload(run));
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
        Optional<DatasetCopy> copy = run.spec().copies().stream()
                .filter(c -> c.viewName(run.dataset()).equals(failed.dataset()))
                .findFirst();
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
     * that failed for good fails the run then, with every count kept.
     */
    private void finishIfAllBatchesDone(RunRecord run) {
        if (run.state() != RunState.DELETING
                || run.taskCount() == null
                || run.batchesCompleted() < run.taskCount()
                || run.copyTasksReported() < run.copyTasksPublished()) {
            return;
        }
        String copiesFailed = copiesFailed(run);
        runs.move(run, RunState.VERIFYING);
        run = reload(run);
        if (copiesFailed != null) {
            runs.recordFailure(run.id(), copiesFailed);
            run = reload(run);
            receipts.issue(run, RunState.FAILED);
            runs.move(run, RunState.FAILED);
            return;
        }
        receipts.issue(run, RunState.COMPLETED);
        runs.move(run, RunState.COMPLETED);
    }

    /** Why the run's copies failed, naming each failed copy and its first error; null if none did. */
    private String copiesFailed(RunRecord run) {
        List<String> reasons = new ArrayList<>();
        CopyTotals.of(run, Map.of(), batches.failures(run.id())).forEach((name, copy) -> {
            if (!copy.failedBatches().isEmpty()) {
                BatchFailure first = copy.failedBatches().get(0);
                reasons.add("copy '" + name + "' (" + copy.dataset() + ") failed: " + first.reason()
                        + (copy.failedBatches().size() == 1
                                ? ""
                                : " (and " + (copy.failedBatches().size() - 1) + " more of its batches)"));
            }
        });
        return reasons.isEmpty() ? null : String.join("; ", reasons);
    }

    /** The run's counts show the deletion of its own dataset and of each copy as the batches report. */
    private void recordDeletionCounts(RunRecord run) {
        Map<String, BatchTotals> totals = batches.totalsByDataset(run.id());
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("deletion", totals.getOrDefault(run.dataset(), BatchTotals.NONE));
        if (!run.spec().copies().isEmpty()) {
            counts.put("copies", CopyTotals.of(run, totals, batches.failures(run.id())));
        }
        runs.recordCounts(run.id(), counts);
    }

    private void fail(RunRecord run, String reason) {
        if (runs.move(run, RunState.FAILED)) {
            runs.recordFailure(run.id(), reason);
        }
    }

    private RunRecord reload(RunRecord run) {
        return runs.find(run.id()).orElseThrow();
    }

    /** Records the event; false if it was applied before (the redelivery is counted). */
    private boolean firstDelivery(EventEnvelope event) {
        int inserted =
                jdbc.update("""
                        INSERT INTO processed_events (event_id, event_type, run_id, received_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (event_id) DO NOTHING""", event.eventId(), event.eventType(), event.runId(), Timestamp.from(clock.instant()));
        if (inserted == 0) {
            jdbc.update("UPDATE processed_events SET deliveries = deliveries + 1 WHERE event_id = ?", event.eventId());
            return false;
        }
        return true;
    }
}
