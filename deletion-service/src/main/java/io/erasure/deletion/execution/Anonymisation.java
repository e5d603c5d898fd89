package io.erasure.deletion.execution;

import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.LiveRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What differs when a forward task anonymises ({@link DeletionTask#anonymising()}) instead of deleting: the rows
 * stay, so the write-ahead record keeps only the values the task clears, and the read-back checks those columns
 * rather than the rows' presence.
 */
final class Anonymisation {

    private Anonymisation() {}

    /**
     * One anonymised record per row that still holds a value in a column to clear: those values, with their write
     * times and TTLs, are what a restore puts back. A row whose columns are already clear loses nothing and needs none.
     */
    static List<DeletionRecord> records(DeletionTask task, String batchId, List<LiveRow> rows, Instant deletedAt) {
        Set<String> cleared = Set.copyOf(task.clearColumns());
        List<DeletionRecord> records = new ArrayList<>();
        for (LiveRow row : rows) {
            List<ColumnValue> values = row.columns().stream()
                    .filter(column -> cleared.contains(column.name()) && column.value() != null)
                    .toList();
            if (!values.isEmpty()) {
                records.add(DeletionRecord.of(task, batchId, row.key(), values, deletedAt));
            }
        }
        return records;
    }

    /**
     * Sorts the rows read after the clear: gone, or every column to clear empty → cleared (their copies go next);
     * written after the cut-off → a concurrent write that rightly won; anything else still holds what it should not.
     */
    static ReadBack readBack(DeletionTask task, List<Map<String, Object>> keys, List<LiveRow> after) {
        Set<String> toClear = Set.copyOf(task.clearColumns());
        Map<String, LiveRow> byKey = after.stream()
                .collect(Collectors.toMap(row -> CanonicalKey.render(row.key()), Function.identity(), (a, b) -> a));
        List<Map<String, Object>> cleared = new ArrayList<>();
        long stillPresent = 0;
        Set<String> seen = new HashSet<>();
        for (Map<String, Object> key : keys) {
            String rendered = CanonicalKey.render(key);
            LiveRow row = byKey.get(rendered);
            if (!seen.add(rendered)) {
                continue;
            }
            if (row == null || row.columns().stream().noneMatch(c -> toClear.contains(c.name()) && c.value() != null)) {
                cleared.add(key);
            } else if (!row.writtenAfter(task.cutoff())) {
                stillPresent++;
            }
        }
        return new ReadBack(cleared, stillPresent);
    }

    record ReadBack(List<Map<String, Object>> cleared, long stillPresent) {}
}
