package io.erasure.store.cassandra.restore;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.restore.RestoreWrites.CellsByTtl;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Puts back the cells an anonymisation cleared, from its deletion record ({@link DeletionRecord#anonymised()}:
 * the record holds only the cleared columns), never over newer data.
 *
 * <p>The row is expected to exist (only some of its columns were cleared), so whether newer data is there is
 * decided per column, not per row:
 * <ol>
 *   <li>If any column the record puts back has a live cell now (written after the clear, or restored before),
 *       nothing is written: {@link Status#NEWER_DATA_KEPT}; cells are never merged.</li>
 *   <li>Columns get their remaining TTL as in a full restore ({@link RestoreWrites#cellsByTtl}); a record whose
 *       every column ran out is {@link Status#EXPIRED}.</li>
 *   <li>Each group of columns sharing a TTL is one {@code UPDATE ... USING TIMESTAMP <cut-off + 1 µs> AND TTL ?
 *       SET c = fromJson(?)}, in one unlogged single-partition batch: cells only, so the row's other columns and
 *       its row marker are left as they are, and a write newer than cut-off + 1 µs still wins cell by cell.</li>
 * </ol>
 */
final class CellRestorer {

    private final CqlRunner cql;

    CellRestorer(CqlRunner cql) {
        this.cql = cql;
    }

    /** One outcome per record, in order; a retriable store failure is thrown (restoring again is safe). */
    List<RecordOutcome> restore(TableShape shape, List<DeletionRecord> records, Instant now) {
        RecordOutcome[] outcomes = new RecordOutcome[records.size()];
        List<Integer> toCheck = new ArrayList<>();
        List<CellsByTtl> cells = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            DeletionRecord record = records.get(i);
            try {
                CellsByTtl pending = RestoreWrites.cellsByTtl(shape, record, now);
                if (!pending.hadValues()) {
                    outcomes[i] =
                            outcome(record, Status.RESTORED, "the cleared columns were null; nothing to put back");
                } else if (pending.expired()) {
                    outcomes[i] = outcome(
                            record,
                            Status.EXPIRED,
                            "every cleared column's TTL ran out since the clear at " + record.deletedAt());
                } else {
                    toCheck.add(i);
                    cells.add(pending);
                }
            } catch (IllegalArgumentException e) {
                outcomes[i] = outcome(record, Status.FAILED, e.getMessage());
            }
        }

        List<Statement<?>> reads = new ArrayList<>(toCheck.size());
        for (int n = 0; n < toCheck.size(); n++) {
            DeletionRecord record = records.get(toCheck.get(n));
            List<Object> key = shape.keyValues(shape.primaryKey(), record.primaryKey());
            reads.add(cql.bind(shape.cellWriteTimesCql(columns(cells.get(n))), key));
        }
        List<List<Row>> found =
                cql.readAll("reading the cells to restore into " + shape.spec().quotedTable(), reads);

        List<Integer> toWrite = new ArrayList<>();
        List<Statement<?>> writes = new ArrayList<>();
        for (int n = 0; n < toCheck.size(); n++) {
            int i = toCheck.get(n);
            DeletionRecord record = records.get(i);
            Long newest = newestCell(found.get(n), columns(cells.get(n)).size());
            if (newest != null) {
                outcomes[i] = outcome(
                        record,
                        Status.NEWER_DATA_KEPT,
                        newest == record.cutoff().restoreWriteTimeMicros()
                                ? "already restored"
                                : "a cleared column was written again at " + newest
                                        + " µs; that is kept and nothing was written");
                continue;
            }
            try {
                writes.add(write(shape, record, cells.get(n)));
                toWrite.add(i);
            } catch (IllegalArgumentException e) {
                outcomes[i] = outcome(record, Status.FAILED, e.getMessage());
            }
        }

        RestoreWrites.execute(
                cql, "restoring cells into " + shape.spec().quotedTable(), writes, toWrite, records, outcomes);
        return List.of(outcomes);
    }

    private Statement<?> write(TableShape shape, DeletionRecord record, CellsByTtl cells) {
        long writeTime = record.cutoff().restoreWriteTimeMicros();
        List<Object> key = shape.keyValues(shape.primaryKey(), record.primaryKey());
        List<BatchableStatement<?>> updates = new ArrayList<>();
        for (Map.Entry<Integer, Map<String, Object>> group : cells.byTtl().entrySet()) {
            List<String> columns = List.copyOf(group.getValue().keySet());
            List<Object> values = new ArrayList<>();
            values.add(writeTime);
            values.add(group.getKey());
            group.getValue()
                    .forEach((column, value) -> values.add(
                            shape.columnValue("record " + record.recordId() + " column " + column, column, value)));
            values.addAll(key);
            updates.add(cql.prepare(shape.restoreCellsCql(columns)).bind(values.toArray()));
        }
        return updates.size() == 1
                ? cql.configure((BoundStatement) updates.get(0))
                : cql.configure(BatchStatement.newInstance(DefaultBatchType.UNLOGGED, updates));
    }

    private static List<String> columns(CellsByTtl cells) {
        Set<String> columns = new LinkedHashSet<>();
        cells.byTtl().values().forEach(group -> columns.addAll(group.keySet()));
        return List.copyOf(columns);
    }

    /** The newest write time among the row's cells of those columns; null when none is live (or the row is gone). */
    private static Long newestCell(List<Row> rows, int columns) {
        if (rows.isEmpty()) {
            return null;
        }
        Long newest = null;
        for (int column = 0; column < columns; column++) {
            Object writeTime = rows.get(0).getObject(column);
            if (writeTime instanceof Long micros && (newest == null || micros > newest)) {
                newest = micros;
            }
        }
        return newest;
    }

    private static RecordOutcome outcome(DeletionRecord record, Status status, String detail) {
        return RestoreWrites.outcome(record, status, detail);
    }
}
