package io.erasure.store.cassandra.restore;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.read.LiveReads;
import io.erasure.store.cassandra.restore.RestoreWrites.CellsByTtl;
import io.erasure.store.cassandra.restore.RestoreWrites.RowWrite;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Puts deleted rows back from their deletion records, never over newer data. The records of an anonymisation
 * ({@link DeletionRecord#anonymised()}) put back only their cleared cells, deciding per column ({@link CellRestorer});
 * the rest as follows.
 *
 * <p>What each record writes is {@link RestoreWrites} (shared with the bulk SSTable path).
 *
 * <ol>
 *   <li>A key that has live data again (a write that landed after the cut-off, or an earlier restore) gets back each
 *       logged cell whose live cell is absent or older than cut-off + 1 µs; a newer cell is kept (last write wins per
 *       cell, DESIGN invariant 3). It is {@link Status#RESTORED} with a detail that counts the cells written and kept,
 *       or {@link Status#NEWER_DATA_KEPT} when every cell is newer ("already restored" when they are all this
 *       restore's own).</li>
 *   <li>Each column gets its remaining TTL: the TTL it had when read, minus the whole seconds (rounded up)
 *       since {@code deletedAt}; a column whose TTL ran out is skipped, and a record whose every column ran
 *       out is {@link Status#EXPIRED}.</li>
 *   <li>The row is written at {@link io.erasure.model.cutoff.CutoffTimestamp#restoreWriteTimeMicros()}
 *       (cut-off + 1 µs) with {@code INSERT ... JSON ? DEFAULT UNSET}, one insert per distinct TTL, in one
 *       unlogged single-partition batch: a write newer than that still wins cell by cell, and a row that had
 *       only key columns comes back as its key.</li>
 * </ol>
 */
public final class Restorer {

    private final CqlRunner cql;
    private final LiveReads reads;
    private final Clock clock;
    private final CellRestorer cells;

    public Restorer(CqlRunner cql, LiveReads reads, Clock clock) {
        this.cql = cql;
        this.reads = reads;
        this.clock = clock;
        this.cells = new CellRestorer(cql);
    }

    public RestoreOutcome restore(TableShape shape, List<DeletionRecord> records) {
        for (DeletionRecord record : records) {
            if (!record.dataset().equals(shape.spec().name())) {
                throw new IllegalArgumentException(
                        "record " + record.recordId() + " belongs to dataset '" + record.dataset() + "', not '"
                                + shape.spec().name() + "'; restore each dataset's records with its own spec");
            }
            shape.spec()
                    .keyColumns()
                    .requireFullKey("record " + record.recordId() + " primaryKey", record.primaryKey());
        }
        RecordOutcome[] outcomes = new RecordOutcome[records.size()];
        List<Integer> inStore = new ArrayList<>();
        List<Integer> anonymised = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            DeletionRecord record = records.get(i);
            if (record.retainedRef() != null) {
                outcomes[i] = outcome(
                        record,
                        Status.FAILED,
                        "the row's columns are in S3 at " + record.retainedRef()
                                + "; the recovery service fetches them and restores the full record");
            } else if (record.anonymised()) {
                anonymised.add(i);
            } else {
                inStore.add(i);
            }
        }
        Instant now = clock.instant();
        if (!anonymised.isEmpty()) {
            List<RecordOutcome> cellOutcomes =
                    cells.restore(shape, anonymised.stream().map(records::get).toList(), now);
            for (int n = 0; n < anonymised.size(); n++) {
                outcomes[anonymised.get(n)] = cellOutcomes.get(n);
            }
        }

        List<LiveState> states = reads.states(
                shape, inStore.stream().map(i -> records.get(i).primaryKey()).toList());
        List<Integer> toWrite = new ArrayList<>();
        List<Statement<?>> writes = new ArrayList<>();
        List<Integer> liveKeys = new ArrayList<>();
        List<CellsByTtl> liveCells = new ArrayList<>();
        for (int n = 0; n < inStore.size(); n++) {
            int i = inStore.get(n);
            DeletionRecord record = records.get(i);
            LiveState state = states.get(n);
            try {
                CellsByTtl cells = RestoreWrites.cellsByTtl(shape, record, now);
                if (state.present() && !cells.hadValues()) {
                    outcomes[i] = outcome(record, Status.NEWER_DATA_KEPT, keptDetail(record, state));
                } else if (cells.expired()) {
                    outcomes[i] = outcome(
                            record,
                            Status.EXPIRED,
                            "every column's TTL ran out since the delete at " + record.deletedAt());
                } else if (state.present()) {
                    liveKeys.add(i);
                    liveCells.add(cells);
                } else {
                    toWrite.add(i);
                    writes.add(write(shape, record, cells));
                }
            } catch (IllegalArgumentException e) {
                outcomes[i] = outcome(record, Status.FAILED, e.getMessage());
            }
        }
        Map<Integer, String> partly = intoLiveRows(shape, records, liveKeys, liveCells, toWrite, writes, outcomes);

        RestoreWrites.execute(cql, "restoring into " + shape.spec().quotedTable(), writes, toWrite, records, outcomes);
        partly.forEach((i, detail) -> {
            if (outcomes[i].status() == Status.RESTORED) {
                outcomes[i] = outcome(records.get(i), Status.RESTORED, detail);
            }
        });
        return new RestoreOutcome(List.of(outcomes));
    }

    /**
     * Keys that have live data again (a write landed after the cut-off, or an earlier restore): each logged cell is
     * restored where the live one is absent or older than cut-off + 1 µs, and a newer cell is kept (last write wins per
     * cell, as the delete at the cut-off left it). Adds their writes to {@code writes}; a key with nothing left to
     * write gets its outcome here. Returns the detail of each key written, by record index.
     */
    private Map<Integer, String> intoLiveRows(
            TableShape shape,
            List<DeletionRecord> records,
            List<Integer> liveKeys,
            List<CellsByTtl> liveCells,
            List<Integer> toWrite,
            List<Statement<?>> writes,
            RecordOutcome[] outcomes) {
        List<Statement<?>> cellReads = new ArrayList<>(liveKeys.size());
        for (int n = 0; n < liveKeys.size(); n++) {
            List<Object> key = shape.keyValues(
                    shape.primaryKey(), records.get(liveKeys.get(n)).primaryKey());
            cellReads.add(cql.bind(shape.cellWriteTimesCql(liveCells.get(n).columns()), key));
        }
        List<List<Row>> found = cellReads.isEmpty()
                ? List.of()
                : cql.readAll("reading the live cells of " + shape.spec().quotedTable(), cellReads);
        Map<Integer, String> details = new LinkedHashMap<>();
        for (int n = 0; n < liveKeys.size(); n++) {
            int i = liveKeys.get(n);
            DeletionRecord record = records.get(i);
            CellsByTtl cells = liveCells.get(n);
            long restoreTime = record.cutoff().restoreWriteTimeMicros();
            List<String> columns = cells.columns();
            Set<String> restore = new LinkedHashSet<>();
            List<String> already = new ArrayList<>();
            Map<String, Long> newer = new LinkedHashMap<>();
            List<Row> rows = found.get(n);
            for (int c = 0; c < columns.size(); c++) {
                Object live = rows.isEmpty() ? null : rows.get(0).getObject(c);
                Long micros = live instanceof Long l ? l : null;
                if (micros == null || micros < restoreTime) {
                    restore.add(columns.get(c));
                } else if (micros == restoreTime) {
                    already.add(columns.get(c));
                } else {
                    newer.put(columns.get(c), micros);
                }
            }
            if (restore.isEmpty()) {
                outcomes[i] = outcome(
                        record,
                        Status.NEWER_DATA_KEPT,
                        newer.isEmpty()
                                ? "already restored"
                                : (already.isEmpty() ? "" : "already restored; ") + kept(newer)
                                        + "; nothing was written");
                continue;
            }
            try {
                writes.add(write(shape, record, cells.only(restore)));
                toWrite.add(i);
                details.put(
                        i,
                        "restored " + restore.size() + " of " + columns.size() + " cells into a row that has live"
                                + " data again"
                                + (already.isEmpty() ? "" : "; " + String.join(", ", already) + " already restored")
                                + (newer.isEmpty() ? "; no cell of it was newer" : "; " + kept(newer)));
            } catch (IllegalArgumentException e) {
                outcomes[i] = outcome(record, Status.FAILED, e.getMessage());
            }
        }
        return details;
    }

    private static String kept(Map<String, Long> newer) {
        return newer.size() + " kept newer ("
                + newer.entrySet().stream()
                        .map(e -> e.getKey() + " written at " + e.getValue() + " µs")
                        .collect(Collectors.joining(", "))
                + ")";
    }

    /** The write restoring {@code cells} of {@code record}; never called with expired cells. */
    private Statement<?> write(TableShape shape, DeletionRecord record, CellsByTtl cells) {
        List<RowWrite> rows = RestoreWrites.of(shape, record, cells);
        if (rows.size() == 1 && rows.get(0).ttlSeconds() == null) {
            return cql.bind(
                    shape.restoreKeyOnlyCql(),
                    List.of(rows.get(0).json(), rows.get(0).writeTimeMicros()));
        }
        List<BatchableStatement<?>> inserts = new ArrayList<>();
        for (RowWrite row : rows) {
            inserts.add(cql.prepare(shape.restoreCql()).bind(row.json(), row.writeTimeMicros(), row.ttlSeconds()));
        }
        return inserts.size() == 1
                ? cql.configure((BoundStatement) inserts.get(0))
                : cql.configure(BatchStatement.newInstance(DefaultBatchType.UNLOGGED, inserts));
    }

    /** Why a record was not written over a live key (shared with the bulk path). */
    public static String keptDetail(DeletionRecord record, LiveState state) {
        if (state.lastWriteMicros() != null
                && state.lastWriteMicros() == record.cutoff().restoreWriteTimeMicros()) {
            return "already restored";
        }
        return state.lastWriteMicros() == null
                ? "the key has live data again (a row with only key columns); nothing was written"
                : "newer data written at " + state.lastWriteMicros() + " µs is kept; nothing was written";
    }

    private static RecordOutcome outcome(DeletionRecord record, Status status, String detail) {
        return RestoreWrites.outcome(record, status, detail);
    }
}
