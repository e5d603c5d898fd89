package io.erasure.backup.format;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One backed-up row: column values in schema order (a value may be null) and, for stores that
 * keep them, the write time of each column in microseconds since the epoch (Cassandra's
 * {@code WRITETIME}); empty for stores without per-cell timestamps.
 */
public record BackupRow(Map<String, Object> values, Map<String, Long> writeTimes) {

    /** The name of the write-time object in a JSON Lines row; {@code @} cannot start a column name. */
    public static final String WRITE_TIMES_FIELD = "@writeTimes";
    /** Prefix of a write-time column in a CSV header: {@code @writeTime.<column>}. */
    public static final String CSV_WRITE_TIME_PREFIX = "@writeTime.";

    public BackupRow {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        writeTimes = writeTimes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(writeTimes));
    }

    public static BackupRow of(Map<String, Object> values) {
        return new BackupRow(values, Map.of());
    }

    /** The latest write time of any column, or null if the row has none. */
    public Long latestWriteTime() {
        return writeTimes.values().stream()
                .filter(Objects::nonNull)
                .max(Long::compare)
                .orElse(null);
    }
}
