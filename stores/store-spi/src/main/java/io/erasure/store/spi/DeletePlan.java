package io.erasure.store.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What executing a delete batch will do, computed without changing anything: the exact statements
 * and a decision per key. Only the adapter that made a plan may execute it.
 */
public record DeletePlan(DeleteBatch batch, List<PlannedStatement> statements, List<KeyDecision> decisions) {

    public DeletePlan {
        Objects.requireNonNull(batch, "batch");
        statements = List.copyOf(statements);
        decisions = List.copyOf(decisions);
        if (decisions.size() != batch.keys().size()) {
            throw new IllegalArgumentException("a plan decides every key of its batch: " + decisions.size() + " decisions for "
                    + batch.keys().size() + " keys");
        }
    }

    public long count(Action action) {
        return decisions.stream().filter(d -> d.action() == action).count();
    }

    /** What will happen to one key. */
    public enum Action {
        /** A row delete conditioned on the cut-off. */
        DELETE_ROW,
        /** Covered by a partition delete: the partition held nothing but rows of this batch, all at or before the cut-off. */
        DELETE_PARTITION,
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
