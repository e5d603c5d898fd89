package io.erasure.store.cassandra.restore;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.read.LiveReads;
import io.erasure.store.cassandra.restore.RestoreWrites.RowWrite;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts deleted rows back from their deletion records, never over newer data. The records of an anonymisation
 * ({@link DeletionRecord#anonymised()}) put back only their cleared cells, deciding per column ({@link CellRestorer});
 * the rest as follows.
 *
 * <p>What each record writes is {@link RestoreWrites} (shared with the bulk SSTable path).
 *
 * <ol>
 *   <li>A key that has any live data now (written after the delete, or restored before) is left alone:
 *       {@link Status#NEWER_DATA_KEPT}; rows are never merged.</li>
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
                throw new IllegalArgumentException("record " + record.recordId() + " belongs to dataset '" + record.dataset()
                        + "', not '" + shape.spec().name() + "'; restore each dataset's records with its own spec");
            }
            shape.spec().keyColumns().requireFullKey("record " + record.recordId() + " primaryKey", record.primaryKey());
        }
        RecordOutcome[] outcomes = new RecordOutcome[records.size()];
        List<Integer> inStore = new ArrayList<>();
        List<Integer> anonymised = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            DeletionRecord record = records.get(i);
            if (record.retainedRef() != null) {
                outcomes[i] = outcome(record, Status.FAILED, "the row's columns are in S3 at " + record.retainedRef()
                        + "; the recovery service fetches them and restores the full record");
            } else if (record.anonymised()) {
                anonymised.add(i);
            } else {
                inStore.add(i);
            }
        }
        Instant now = clock.instant();
        if (!anonymised.isEmpty()) {
            List<RecordOutcome> cellOutcomes = cells.restore(shape, anonymised.stream().map(records::get).toList(), now);
            for (int n = 0; n < anonymised.size(); n++) {
                outcomes[anonymised.get(n)] = cellOutcomes.get(n);
            }
        }

        List<LiveState> states = reads.states(shape, inStore.stream().map(i -> records.get(i).primaryKey()).toList());
        List<Integer> toWrite = new ArrayList<>();
        List<Statement<?>> writes = new ArrayList<>();
        for (int n = 0; n < inStore.size(); n++) {
            int i = inStore.get(n);
            DeletionRecord record = records.get(i);
            LiveState state = states.get(n);
            if (state.present()) {
                outcomes[i] = outcome(record, Status.NEWER_DATA_KEPT, keptDetail(record, state));
                continue;
            }
            try {
                Statement<?> write = write(shape, record, now);
                if (write == null) {
                    outcomes[i] = outcome(record, Status.EXPIRED, "every column's TTL ran out since the delete at "
                            + record.deletedAt());
                } else {
                    toWrite.add(i);
                    writes.add(write);
                }
            } catch (IllegalArgumentException e) {
                outcomes[i] = outcome(record, Status.FAILED, e.getMessage());
            }
        }

        RestoreWrites.execute(cql, "restoring into " + shape.spec().quotedTable(), writes, toWrite, records, outcomes);
        return new RestoreOutcome(List.of(outcomes));
    }

    /** The write restoring {@code record}, or null if every column it had expired meanwhile. */
    private Statement<?> write(TableShape shape, DeletionRecord record, Instant now) {
        List<RowWrite> rows = RestoreWrites.of(shape, record, now);
        if (rows.isEmpty()) {
            return null;
        }
        if (rows.size() == 1 && rows.get(0).ttlSeconds() == null) {
            return cql.bind(shape.restoreKeyOnlyCql(), List.of(rows.get(0).json(), rows.get(0).writeTimeMicros()));
        }
        List<BatchableStatement<?>> inserts = new ArrayList<>();
        for (RowWrite row : rows) {
            inserts.add(cql.prepare(shape.restoreCql()).bind(row.json(), row.writeTimeMicros(), row.ttlSeconds()));
        }
        return inserts.size() == 1
                ? cql.configure((com.datastax.oss.driver.api.core.cql.BoundStatement) inserts.get(0))
                : cql.configure(BatchStatement.newInstance(DefaultBatchType.UNLOGGED, inserts));
    }

    /** Why a record was not written over a live key (shared with the bulk path). */
    public static String keptDetail(DeletionRecord record, LiveState state) {
        if (state.lastWriteMicros() != null && state.lastWriteMicros() == record.cutoff().restoreWriteTimeMicros()) {
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
