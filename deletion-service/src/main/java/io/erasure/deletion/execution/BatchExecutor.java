package io.erasure.deletion.execution;

import io.erasure.deletion.execution.DeletionGate.Cancelled;
import io.erasure.deletion.fanout.CopyFanOut;
import io.erasure.deletion.log.WriteAheadDeletionLog;
import io.erasure.deletion.throttle.AdaptiveThrottle;
import io.erasure.deletion.throttle.SpreadPacer;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePace;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import io.erasure.support.stores.StoreAdapterPool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes deletion tasks, batch by batch, in the only order that keeps every invariant:
 * <ol>
 *   <li>plan (per key: delete, skip as newer than the cut-off, absent) — before reading, so a row
 *       updated between read and delete can never be deleted unlogged;</li>
 *   <li>read the rows the plan deletes (full rows with write times and TTLs);</li>
 *   <li>append one deletion record per row to the log and wait for every acknowledgement (write-ahead); while they
 *       arrive, remember the source values the copies need beyond the primary key, if any;</li>
 *   <li>delete, conditioned on the task's cut-off, throttled;</li>
 *   <li>read back; publish the copy tasks of the rows that are gone ({@link CopyFanOut}: copies are
 *       deleted after their source); report the batch and, while the report travels, record it as done.</li>
 * </ol>
 * The service's own PostgreSQL sees two statements per batch (is it a redelivery; record it done, which also drops
 * the remembered copy values), three where a copy needs remembered values.
 * A copy task (a task of a copy's view) goes through the same steps on the copy's store.
 * A crash between any two steps loses nothing: before the acknowledgement nothing was deleted, after
 * it every row has its record; the redelivered batch re-plans and finds what is already gone absent.
 * Kill switches, cancellation (of the source dataset, for a copy task) and the log's lag ({@link DeletionGate}) are
 * checked before each batch, while it waits for the throttle and again right before its delete; a pause longer than
 * the hold hands the poll back to the consumer ({@link DeletionPaused}) instead of blocking it.
 * A batch of a run spread over a window first waits for its pace ({@link SpreadPacer}), with the same checks; a pace
 * wait that would outlast the poll's time budget hands the poll back at the budget's end.
 */
public class BatchExecutor {

    private static final Logger log = LoggerFactory.getLogger(BatchExecutor.class);

    /** How far ahead of this replica's clock a task's cut-off may be before the task is refused. */
    static final Duration CUTOFF_CLOCK_SKEW = Duration.ofMinutes(2);

    private final StoreAdapterPool stores;
    private final WriteAheadDeletionLog deletionLog;
    private final DeletionGate gate;
    private final AdaptiveThrottle throttle;
    private final SpreadPacer pacer;
    private final ProcessedBatches processed;
    private final CopyFanOut fanOut;
    private final BatchEvents events;
    private final StoreCalls calls;
    private final DeletionMetrics metrics;
    private final StepListener steps;
    private final Clock clock;

    public BatchExecutor(
            StoreAdapterPool stores,
            WriteAheadDeletionLog deletionLog,
            DeletionGate gate,
            AdaptiveThrottle throttle,
            SpreadPacer pacer,
            ProcessedBatches processed,
            CopyFanOut fanOut,
            BatchEvents events,
            StoreCalls calls,
            DeletionMetrics metrics,
            StepListener steps,
            Clock clock) {
        this.stores = stores;
        this.deletionLog = deletionLog;
        this.gate = gate;
        this.throttle = throttle;
        this.pacer = pacer;
        this.processed = processed;
        this.fanOut = fanOut;
        this.events = events;
        this.calls = calls;
        this.metrics = metrics;
        this.steps = steps;
        this.clock = clock;
    }

    /** {@link #execute(DeletionTask, Instant)} without a time budget. */
    public void execute(DeletionTask task) {
        execute(task, Instant.MAX);
    }

    /**
     * Executes a task, which the caller verified ({@code TaskVerifier}): it is proven authentic, so what this refuses
     * (a cut-off in the future, a store it cannot use) fails its run or request. Store trouble that outlasts the
     * retries is thrown as {@link StoreException.Retriable} (the task is redelivered later); anything that retrying
     * cannot fix is reported as BatchFailed. A kill switch
     * that stays on, or {@code handBackAt} passing, throws {@link DeletionPaused} before the next delete.
     */
    public void execute(DeletionTask task, Instant handBackAt) {
        if (gate.cancelled(task)) {
            log.info("task {} belongs to cancelled run {}: skipped", task.taskId(), task.runId());
            return;
        }
        Instant latestCutoff = clock.instant().plus(CUTOFF_CLOCK_SKEW);
        if (task.cutoff().toInstant().isAfter(latestCutoff)) {
            // nothing would count as written after it, and Cassandra tombstones would hide every later write
            fail(
                    task,
                    task.batchId(0),
                    new IllegalArgumentException("task " + task.taskId() + " of " + task.dataset()
                            + " has a cut-off in the future (" + task.cutoff().toInstant() + ", later than now + "
                            + CUTOFF_CLOCK_SKEW
                            + "); nothing is deleted: check the backup's cutoffMicros (microseconds since"
                            + " the epoch) or the request's tombstone time"));
            return;
        }
        StoreAdapter adapter;
        try {
            adapter = calls.call(task.spec().connectionRef(), () -> stores.checkedAdapter(task.spec()));
        } catch (StoreException.Fatal | IllegalArgumentException refused) {
            fail(task, task.batchId(0), refused);
            return;
        }
        BatchEffect effect = BatchEffect.of(task);
        Optional<String> unsupported = effect.unsupported(task, adapter);
        if (unsupported.isPresent()) {
            fail(task, task.batchId(0), new IllegalArgumentException(unsupported.get()));
            return;
        }
        int batchSize = adapter.capabilities().maxBatch();
        List<Map<String, Object>> keys = task.keys();
        for (int from = 0, index = 0; from < keys.size(); from += batchSize, index++) {
            List<Map<String, Object>> batchKeys = keys.subList(from, Math.min(keys.size(), from + batchSize));
            String batchId = task.batchId(index);
            try {
                executeBatch(task, adapter, effect, batchId, batchKeys, handBackAt);
            } catch (StoreException.Fatal | IllegalArgumentException refused) {
                fail(task, batchId, refused);
                return;
            } catch (Cancelled cancelled) {
                log.info(
                        "task {} of {}: run {} cancelled before batch {} was deleted; the rest is skipped",
                        task.taskId(),
                        task.dataset(),
                        task.runId(),
                        batchId);
                return;
            }
        }
    }

    private void executeBatch(
            DeletionTask task,
            StoreAdapter adapter,
            BatchEffect effect,
            String batchId,
            List<Map<String, Object>> keys,
            Instant handBackAt) {
        DatasetSpec spec = task.spec();
        String store = spec.connectionRef();
        String keySet = keys.stream().map(CanonicalKey::render).sorted().collect(Collectors.joining("\n"));
        Optional<ProcessedBatches.Done> done = processed.redelivered(batchId, task.dataset(), keySet);
        if (done.isPresent()) {
            report(task, batchId, done.get()).await();
            return;
        }
        gate.awaitOpen(task, handBackAt);
        awaitPace(task, batchId, keys.size(), handBackAt);

        DeletePlan plan = calls.call(
                store,
                () -> adapter.planDelete(new DeleteBatch(spec, batchId, task.cutoff(), keys, task.clearColumns())));
        steps.after(Step.PLANNED, batchId);
        List<Map<String, Object>> toDelete = plan.decisions().stream()
                .filter(d -> d.action() == DeletePlan.Action.DELETE_ROW
                        || d.action() == DeletePlan.Action.DELETE_PARTITION
                        || d.action() == DeletePlan.Action.CLEAR_COLUMNS)
                .map(DeletePlan.KeyDecision::key)
                .toList();
        // the throttle waits before the read, so nothing but the log's acknowledgement lies between read and delete
        if (!toDelete.isEmpty() && !throttle.acquire(store, toDelete.size(), gate.closed(task), gate.poll())) {
            throw gate.halted(task);
        }
        List<LiveRow> rows = toDelete.isEmpty() ? List.of() : calls.call(store, () -> adapter.readRows(spec, toDelete));
        steps.after(Step.READ, batchId);
        // hierarchies return child rows too; copies are of the dataset's own rows
        Set<String> unread = toDelete.stream().map(CanonicalKey::render).collect(Collectors.toCollection(HashSet::new));
        List<LiveRow> sourceRows = rows.stream()
                .filter(row -> unread.remove(CanonicalKey.render(row.key())))
                .toList();
        requireEveryPlannedRowRead(batchId, unread);

        Instant deletedAt = clock.instant();
        List<DeletionRecord> records = effect.records(task, batchId, rows, sourceRows, deletedAt);
        WriteAheadDeletionLog.Acknowledgements logged = deletionLog.send(task, records);
        // while the log acknowledges: both must be in before the delete, neither depends on the other
        CopyFanOut.Remembered remembered = fanOut.remember(task, batchId, sourceRows);
        logged.await();
        steps.after(Step.LOGGED, batchId);

        DeleteOutcome outcome = new DeleteOutcome(
                0,
                (int) plan.count(DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF),
                (int) plan.count(DeletePlan.Action.ABSENT),
                0,
                0);
        if (!toDelete.isEmpty()) {
            if (gate.closed(task).getAsBoolean()) {
                throw gate.halted(task); // right before the delete statements: a switch flipped since the read
            }
            long started = System.nanoTime();
            // the throttle's current limit and the gate, read while a delete the store paces itself runs
            DeletePace pace = DeletePace.of(() -> Math.max(1, throttle.limit(store)), gate.closed(task));
            try {
                outcome = calls.call(store, () -> adapter.executeDelete(plan, pace));
            } catch (DeletePace.Halted stoppedPartWay) {
                // a delete the store paced itself stopped part-way: the batch is planned again when handed back, and
                // finds what went absent and what stayed, logged again
                throw gate.halted(task);
            }
            throttle.observe(store, Duration.ofNanos(System.nanoTime() - started));
        }
        Instant sourceGoneAt = clock.instant();
        steps.after(Step.DELETED, batchId);

        List<Map<String, Object>> alreadyAbsent = plan.decisions().stream()
                .filter(d -> d.action() == DeletePlan.Action.ABSENT)
                .map(DeletePlan.KeyDecision::key)
                .toList();
        BatchEffect.ReadBack readBack = toDelete.isEmpty()
                ? BatchEffect.ReadBack.nothingPlanned(BatchEffect.reported(outcome))
                : effect.readBack(task, adapter, calls, plan, outcome, toDelete);
        markKeptNewer(records, readBack.keptNewer());
        List<Map<String, Object>> deleted = readBack.done();
        long stillPresent = readBack.stillPresent();
        BatchCounts counts = readBack.counts();
        steps.after(Step.VERIFIED, batchId);

        int copyTasks = fanOut.publish(task, batchId, remembered, deleted, alreadyAbsent, sourceGoneAt);
        steps.after(Step.COPIES_PUBLISHED, batchId);

        if (!plan.warnings().isEmpty()) {
            log.warn("batch {} of {}: {}", batchId, task.dataset(), plan.warnings());
        }
        ProcessedBatches.Done result = new ProcessedBatches.Done(
                counts, stillPresent, records.size(), copyTasks, CanonicalKey.digestOf(deleted), plan.warnings());
        // the batch is recorded while its report travels: a redelivery after a crash in between either re-reports the
        // record or runs the batch again, finds its rows gone and reports under the same event id; either way the
        // copy tasks are published before the record, which ends the batch, and its remembered copy values with it
        BatchEvents.Sent reported = report(task, batchId, result);
        processed.done(
                batchId,
                task.dataset(),
                keySet,
                task.runId() == null ? null : task.runId().value(),
                task.taskId(),
                result,
                task.paced() ? keys.size() : 0,
                !spec.copies().isEmpty());
        reported.await();
        steps.after(Step.REPORTED, batchId);
        metrics.batchDone(task.dataset(), store, counts, stillPresent, outcome.tombstones(), records.size());
    }

    /**
     * The records of rows a newer write kept alive are published again, marked: the log then says the delete did not
     * apply to them, so they count neither as deleted nor, when their row is seen later, as resurrected.
     */
    private void markKeptNewer(List<DeletionRecord> records, Set<String> keptNewer) {
        if (keptNewer.isEmpty()) {
            return;
        }
        deletionLog.append(records.stream()
                .filter(r -> keptNewer.contains(CanonicalKey.render(r.primaryKey())))
                .map(DeletionRecord::asKeptNewer)
                .toList());
    }

    /**
     * Write-ahead, strictly: a row the plan deletes but the read did not return (it went in between) has no
     * record, and a write landing before the delete could then be removed unlogged. The batch is re-planned
     * instead (redelivered), and finds the row absent or reads it.
     */
    private static void requireEveryPlannedRowRead(String batchId, Set<String> unread) {
        if (!unread.isEmpty()) {
            throw new StoreException.Retriable(
                    "batch " + batchId + ": " + unread.size() + " key(s) planned for deletion"
                            + " were not read for the log (e.g. "
                            + unread.iterator().next() + "); the batch is planned again",
                    null);
        }
    }

    private BatchEvents.Sent report(DeletionTask task, String batchId, ProcessedBatches.Done result) {
        long stillPresent = result.stillPresent();
        return events.sendAsync(
                task,
                batchId,
                new BatchCompleted(
                        task.dataset(),
                        task.taskId(),
                        batchId,
                        task.requestId(),
                        result.counts(),
                        stillPresent > 0 ? ReadBackResult.ROWS_REMAINING : ReadBackResult.CLEAN,
                        stillPresent,
                        task.copyOf(),
                        result.copyTasks(),
                        result.keysDigest(),
                        result.warnings()));
    }

    private void fail(DeletionTask task, String batchId, RuntimeException refused) {
        log.error("task {} of {} refused: {}", task.taskId(), task.dataset(), refused.getMessage());
        metrics.batchFailed(task.dataset(), task.keys().size());
        events.send(
                task,
                batchId,
                new BatchFailed(
                        task.dataset(),
                        task.taskId(),
                        batchId,
                        task.requestId(),
                        String.valueOf(refused.getMessage()),
                        false));
    }

    /** A paced batch waits for its slot, before its plan: nothing of it is read or deleted while it waits. */
    private void awaitPace(DeletionTask task, String batchId, int keys, Instant handBackAt) {
        switch (pacer.await(task, batchId, keys, gate.closed(task), gate.poll(), handBackAt)) {
            case GO -> {}
            case STOPPED -> throw gate.halted(task);
            case HAND_BACK ->
                throw new DeletionPaused("run " + task.runId() + " of " + task.dataset() + " is spread until "
                        + task.spread().end() + " and its next batch is not due within the poll's time budget: task "
                        + task.taskId() + " handed back to the consumer");
        }
    }
}
