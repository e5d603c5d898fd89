package io.erasure.store.spi;

import io.erasure.model.check.Names;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.task.DeletionTask;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Keys of one dataset to delete at one cut-off. Each key is a full primary key, distinct.
 *
 * @param batchId      deterministic id of the batch (from the task), for logs and idempotence
 * @param clearColumns empty to delete the rows; otherwise the rows are kept and only these (non-key) columns
 *                     are cleared to null (forward deletion's anonymisation), under the same cut-off rule
 */
public record DeleteBatch(
        DatasetSpec spec,
        String batchId,
        CutoffTimestamp cutoff,
        List<Map<String, Object>> keys,
        List<String> clearColumns) {

    /** A batch that deletes its rows. */
    public DeleteBatch(DatasetSpec spec, String batchId, CutoffTimestamp cutoff, List<Map<String, Object>> keys) {
        this(spec, batchId, cutoff, keys, List.of());
    }

    public DeleteBatch {
        Objects.requireNonNull(spec, "spec");
        Names.opaqueId("batchId", batchId);
        Objects.requireNonNull(cutoff, "cutoff (a delete is never issued at 'now')");
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a delete batch needs at least one key");
        }
        for (int i = 0; i < keys.size(); i++) {
            spec.keyColumns().requireFullKey("keys[" + i + "]", keys.get(i));
        }
        if (new HashSet<>(keys).size() != keys.size()) {
            throw new IllegalArgumentException("a delete batch must not repeat a key");
        }
        clearColumns = clearColumns == null ? List.of() : List.copyOf(clearColumns);
        DeletionTask.requireClearable(spec, clearColumns);
    }

    /** True when this batch anonymises (clears columns) instead of deleting rows. */
    public boolean anonymising() {
        return !clearColumns.isEmpty();
    }
}
