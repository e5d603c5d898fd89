package io.erasure.store.spi;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A full row as the store holds it now, for the write-ahead log and for restores.
 *
 * @param key             the primary key
 * @param columns         every non-key column (key columns too, where they carry no write time)
 * @param lastWriteMicros the newest write time of the row (newest cell, or the conditional column);
 *                        null when the store cannot tell (a Cassandra row with only key columns)
 */
public record LiveRow(
        Map<String, Object> key,
        List<ColumnValue> columns,
        @Nullable Long lastWriteMicros) {

    public LiveRow {
        Objects.requireNonNull(key, "key");
        key = Collections.unmodifiableMap(new LinkedHashMap<>(key));
        columns = List.copyOf(columns);
    }

    /** True if any part of the row was written after the cut-off: such a row must not be deleted. */
    public boolean writtenAfter(CutoffTimestamp cutoff) {
        return cutoff.isWrittenAfter(lastWriteMicros);
    }
}
