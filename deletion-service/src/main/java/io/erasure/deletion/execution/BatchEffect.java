package io.erasure.deletion.execution;

import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.TaskEffect;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.StoreAdapter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a task does to the rows its plan selects, the only part of a batch that differs between the two: a task
 * {@linkplain Delete deletes} them, or (forward deletion under an ANONYMISE policy) {@linkplain Clear clears} some of
 * their columns and keeps them. Each says whether a store can do it, what the write-ahead log must keep of a row, and
 * how to read the rows back afterwards.
 */
sealed interface BatchEffect permits BatchEffect.Delete, BatchEffect.Clear {

    /**
     * @throws IllegalArgumentException for a lookup task: it is resolved into ordinary tasks, never executed; its keys
     *                                  are identifier values, not rows
     */
    static BatchEffect of(DeletionTask task) {
        TaskEffect effect = task.effect();
        if (effect instanceof TaskEffect.Lookup) {
            throw new IllegalArgumentException("task " + task.taskId() + " is a lookup by " + task.lookupColumn()
                    + ": it is resolved into tasks of the rows it finds, never executed itself");
        }
        return effect instanceof TaskEffect.Clear ? new Clear() : new Delete();
    }

    /** Why {@code adapter}'s store cannot apply this effect to {@code task}'s dataset, if it cannot. */
    Optional<String> unsupported(DeletionTask task, StoreAdapter adapter);

    /**
     * The write-ahead records of a batch's rows as read before the statements ({@code rows}: with a hierarchy's child
     * rows; {@code sourceRows}: the dataset's own).
     */
    List<DeletionRecord> records(
            DeletionTask task, String batchId, List<LiveRow> rows, List<LiveRow> sourceRows, Instant deletedAt);

    /** Reads the planned keys back after the statements (through {@code calls}: retried, breaker) and sorts them. */
    ReadBack readBack(
            DeletionTask task,
            StoreAdapter adapter,
            StoreCalls calls,
            DeletePlan plan,
            DeleteOutcome outcome,
            List<Map<String, Object>> toDelete);

    /**
     * What the read-back found: the batch's counts, the keys whose effect holds (their copies go next), how many keys
     * still hold what they should not, and the keys a write after the cut-off kept (their records get marked).
     */
    record ReadBack(BatchCounts counts, List<Map<String, Object>> done, long stillPresent, Set<String> keptNewer) {

        /** Nothing was planned: the plan's counts are the batch's. */
        static ReadBack nothingPlanned(BatchCounts counts) {
            return new ReadBack(counts, List.of(), 0, Set.of());
        }
    }

    /** The counts the statements themselves report ({@code outcome}), before any read-back. */
    static BatchCounts reported(DeleteOutcome outcome) {
        return new BatchCounts(outcome.deleted(), outcome.skippedNewer(), outcome.absent(), 0);
    }

    /** Rows are deleted: the log keeps every row whole, and the read-back checks that each is gone. */
    record Delete() implements BatchEffect {

        @Override
        public Optional<String> unsupported(DeletionTask task, StoreAdapter adapter) {
            return Optional.empty();
        }

        @Override
        public List<DeletionRecord> records(
                DeletionTask task, String batchId, List<LiveRow> rows, List<LiveRow> sourceRows, Instant deletedAt) {
            return rows.stream()
                    .map(row -> DeletionRecord.of(task, batchId, row.key(), row.columns(), deletedAt))
                    .toList();
        }

        @Override
        public ReadBack readBack(
                DeletionTask task,
                StoreAdapter adapter,
                StoreCalls calls,
                DeletePlan plan,
                DeleteOutcome outcome,
                List<Map<String, Object>> toDelete) {
            DatasetSpec spec = task.spec();
            if (!readBackPossible(spec)) {
                return new ReadBack(reported(outcome), toDelete, 0, Set.of());
            }
            List<LiveState> after = calls.call(spec.connectionRef(), () -> adapter.checkLiveState(spec, toDelete));
            List<Map<String, Object>> gone = new ArrayList<>();
            Set<String> keptNewer = new HashSet<>();
            long stillPresent = 0;
            for (int i = 0; i < toDelete.size(); i++) {
                LiveState state = after.get(i);
                if (!state.present()) {
                    gone.add(toDelete.get(i));
                } else if (state.writtenAfter(task.cutoff())) {
                    keptNewer.add(CanonicalKey.render(toDelete.get(i))); // a concurrent write rightly won: alive
                } else {
                    stillPresent++; // still there with nothing newer: the delete missed it
                }
            }
            return new ReadBack(
                    ReadBackCounts.of(plan, outcome, gone.size(), keptNewer.size(), stillPresent),
                    gone,
                    stillPresent,
                    keptNewer);
        }

        /**
         * An HTTP callback without a check endpoint cannot be read back: the owner's answer is the outcome and every
         * key it was asked to delete counts as deleted.
         */
        private static boolean readBackPossible(DatasetSpec spec) {
            return !(spec.target() instanceof CopyTarget.HttpCallback callback) || callback.checkUrl() != null;
        }
    }

    /**
     * Columns are cleared and the rows kept: the log keeps only the values cleared, and the read-back checks those
     * columns rather than the rows' presence.
     */
    record Clear() implements BatchEffect {

        @Override
        public Optional<String> unsupported(DeletionTask task, StoreAdapter adapter) {
            return adapter.capabilities().clearColumns()
                    ? Optional.empty()
                    : Optional.of("store type '" + task.spec().storeKind() + "' cannot anonymise (clear columns) of "
                            + task.dataset() + "; set its forward policy to DELETE or KEEP_SNAPSHOT");
        }

        /**
         * One record per row that still holds a value in a column to clear: those values, with their write times and
         * TTLs, are what a restore puts back. A row whose columns are already clear loses nothing and needs none.
         */
        @Override
        public List<DeletionRecord> records(
                DeletionTask task, String batchId, List<LiveRow> rows, List<LiveRow> sourceRows, Instant deletedAt) {
            return Anonymisation.records(task, batchId, sourceRows, deletedAt);
        }

        /**
         * Gone, or every column to clear empty: cleared (their copies go next); written after the cut-off: a
         * concurrent write that rightly won; anything else still holds what it should not.
         */
        @Override
        public ReadBack readBack(
                DeletionTask task,
                StoreAdapter adapter,
                StoreCalls calls,
                DeletePlan plan,
                DeleteOutcome outcome,
                List<Map<String, Object>> toDelete) {
            List<LiveRow> after =
                    calls.call(task.spec().connectionRef(), () -> adapter.readRows(task.spec(), toDelete));
            Anonymisation.ReadBack readBack = Anonymisation.readBack(task, toDelete, after);
            return new ReadBack(reported(outcome), readBack.cleared(), readBack.stillPresent(), Set.of());
        }
    }
}
