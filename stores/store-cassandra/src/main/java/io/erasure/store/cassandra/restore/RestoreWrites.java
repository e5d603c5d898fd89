package io.erasure.store.cassandra.restore;

import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.CassandraErrors;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.json.CqlJson;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What restoring one deletion record writes, independent of how it is written (CQL inserts online, or
 * rows of an SSTable in the bulk path): the row's columns grouped by remaining TTL, each group one
 * {@code INSERT ... JSON} at cut-off + 1 µs.
 *
 * <p>Remaining TTL = the TTL the column had when read, minus the whole seconds (rounded up) since
 * {@code deletedAt}; a column whose TTL ran out is left out, and a record whose every column ran out
 * yields no writes at all (expired).
 */
public final class RestoreWrites {

    /**
     * One insert: the row's Cassandra JSON, its write time, and its TTL in seconds ({@code 0} = none;
     * {@code null} = a row that had only key columns, written without a TTL so the table default applies).
     */
    public record RowWrite(String json, long writeTimeMicros, Integer ttlSeconds) {}

    private RestoreWrites() {}

    /**
     * Runs {@code writes} (the i-th restores {@code records[toWrite[i]]}) and fills their outcomes: RESTORED, or FAILED
     * with the store's reason. A retriable failure is thrown: retrying the whole call is safe, what was restored then
     * reports "already restored".
     */
    static void execute(
            CqlRunner cql,
            String what,
            List<Statement<?>> writes,
            List<Integer> toWrite,
            List<DeletionRecord> records,
            RecordOutcome[] outcomes) {
        List<Throwable> failures = cql.executeEach(writes);
        for (int n = 0; n < toWrite.size(); n++) {
            int i = toWrite.get(n);
            Throwable failure = failures.get(n);
            if (failure == null) {
                outcomes[i] = outcome(records.get(i), Status.RESTORED, null);
                continue;
            }
            StoreException error = CassandraErrors.translate(what, failure);
            if (error instanceof StoreException.Retriable) {
                throw error;
            }
            outcomes[i] = outcome(records.get(i), Status.FAILED, error.getMessage());
        }
    }

    static RecordOutcome outcome(DeletionRecord record, Status status, String detail) {
        return new RecordOutcome(record.recordId(), record.primaryKey(), status, detail);
    }

    /**
     * The inserts restoring {@code record} as of {@code now}; empty if every column it had expired meanwhile.
     *
     * @throws IllegalArgumentException if a column of the record is no longer in the table
     */
    public static List<RowWrite> of(TableShape shape, DeletionRecord record, Instant now) {
        return of(shape, record, cellsByTtl(shape, record, now));
    }

    /**
     * The inserts restoring {@code cells} of {@code record} (all of {@link #cellsByTtl}, or
     * {@link CellsByTtl#only some} of them); empty if they all expired.
     */
    public static List<RowWrite> of(TableShape shape, DeletionRecord record, CellsByTtl cells) {
        long writeTime = record.cutoff().restoreWriteTimeMicros();
        if (cells.expired()) {
            return List.of();
        }
        if (cells.byTtl().isEmpty()) {
            return List.of(new RowWrite(json(shape, record.primaryKey()), writeTime, null));
        }
        List<RowWrite> writes = new ArrayList<>(cells.byTtl().size());
        cells.byTtl().forEach((ttl, columns) -> {
            Map<String, Object> row = new LinkedHashMap<>(record.primaryKey());
            row.putAll(columns);
            writes.add(new RowWrite(json(shape, row), writeTime, ttl));
        });
        return writes;
    }

    /**
     * The record's non-null regular columns grouped by remaining TTL ({@code 0} = none), in the record's order,
     * without the columns whose TTL ran out.
     *
     * @param hadValues whether the record held any non-null regular column at all
     */
    public record CellsByTtl(Map<Integer, Map<String, Object>> byTtl, boolean hadValues) {

        /** True when the record had values and every one of them expired since the delete. */
        public boolean expired() {
            return hadValues && byTtl.isEmpty();
        }

        /** The columns still to restore, in the record's order. */
        public List<String> columns() {
            List<String> columns = new ArrayList<>();
            byTtl.values().forEach(group -> columns.addAll(group.keySet()));
            return columns;
        }

        /** These cells limited to {@code columns}. */
        public CellsByTtl only(Set<String> columns) {
            Map<Integer, Map<String, Object>> kept = new TreeMap<>();
            byTtl.forEach((ttl, group) -> group.forEach((column, value) -> {
                if (columns.contains(column)) {
                    kept.computeIfAbsent(ttl, t -> new LinkedHashMap<>()).put(column, value);
                }
            }));
            return new CellsByTtl(kept, hadValues);
        }
    }

    /**
     * What of {@code record} is still to restore as of {@code now}.
     *
     * @throws IllegalArgumentException if a column of the record is no longer in the table
     */
    public static CellsByTtl cellsByTtl(TableShape shape, DeletionRecord record, Instant now) {
        long elapsed = secondsRoundedUp(Duration.between(record.deletedAt(), now));
        Map<Integer, Map<String, Object>> byTtl = new TreeMap<>();
        boolean hadValues = false;
        for (ColumnValue column : record.columns()) {
            if (shape.keyTypes().containsKey(column.name()) || column.value() == null) {
                continue;
            }
            if (!shape.regular().containsKey(column.name())) {
                throw new IllegalArgumentException("column '" + column.name() + "' of the record is no longer in "
                        + shape.spec().quotedTable() + "; add it back or restore the row by hand");
            }
            hadValues = true;
            int ttl = 0;
            if (column.ttlSeconds() != null) {
                long remaining = column.ttlSeconds() - elapsed;
                if (remaining <= 0) {
                    continue;
                }
                ttl = (int) remaining;
            }
            byTtl.computeIfAbsent(ttl, t -> new LinkedHashMap<>()).put(column.name(), column.value());
        }
        return new CellsByTtl(byTtl, hadValues);
    }

    private static String json(TableShape shape, Map<String, Object> row) {
        return CqlJson.toCassandraJsonObject(row, shape.allTypes());
    }

    private static long secondsRoundedUp(Duration elapsed) {
        if (elapsed.isNegative()) {
            return 0;
        }
        return elapsed.getSeconds() + (elapsed.getNano() > 0 ? 1 : 0);
    }
}
