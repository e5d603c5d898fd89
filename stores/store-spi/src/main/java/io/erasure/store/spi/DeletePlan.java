package io.erasure.store.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What executing a delete batch will do, computed without changing anything: the exact statements
 * and a decision per key. Only the adapter that made a plan may execute it.
 *
 * @param warnings what the adapter found risky but not unsafe enough to refuse (e.g. Cassandra: no repair
 *                 of the table within its {@code gc_grace_seconds}, more tombstones into one partition than the
 *                 table's warning threshold), one sentence each with the fix; empty when nothing is. A store
 *                 that must not be deleted from refuses in {@code planDelete} with {@link StoreException.Fatal}
 *                 instead.
 */
public record DeletePlan(
        DeleteBatch batch, List<PlannedStatement> statements, List<KeyDecision> decisions, List<String> warnings) {

    public DeletePlan {
        Objects.requireNonNull(batch, "batch");
        statements = List.copyOf(statements);
        decisions = List.copyOf(decisions);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        if (decisions.size() != batch.keys().size()) {
            throw new IllegalArgumentException("a plan decides every key of its batch: " + decisions.size()
                    + " decisions for " + batch.keys().size() + " keys");
        }
    }

    /** A plan without warnings. */
    public DeletePlan(DeleteBatch batch, List<PlannedStatement> statements, List<KeyDecision> decisions) {
        this(batch, statements, decisions, List.of());
    }

    /** This plan with {@code more} warnings added after its own. */
    public DeletePlan withWarnings(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(warnings);
        all.addAll(more);
        return new DeletePlan(batch, statements, decisions, all);
    }

    public long count(Action action) {
        return decisions.stream().filter(d -> d.action() == action).count();
    }

    /** What will happen to one key. */
    public enum Action {
        /** A row delete conditioned on the cut-off. */
        DELETE_ROW,
        /**
         * Covered by a partition delete: the partition held nothing but rows of this batch, all at or before the
         * cut-off.
         */
        DELETE_PARTITION,
        /**
         * Anonymisation: the batch's clear columns are set to null, the row is kept; conditioned on the cut-off like a
         * delete (Cassandra: a cell delete at the cut-off's timestamp; relational: only while the row's version is at
         * or before it).
         */
        CLEAR_COLUMNS,
        /** Skipped: the live row was written after the cut-off. */
        SKIP_WRITTEN_AFTER_CUTOFF,
        /** Skipped: no live row. */
        ABSENT
    }

    public record KeyDecision(Map<String, Object> key, Action action) {
        public KeyDecision {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(action, "action");
        }
    }
}
