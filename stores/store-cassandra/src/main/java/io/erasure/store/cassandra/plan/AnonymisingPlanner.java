package io.erasure.store.cassandra.plan;

import io.erasure.store.cassandra.read.LiveReads;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides what anonymising a batch does (clearing its clear columns and keeping the rows), reading but never
 * writing.
 *
 * <p>Per key, from the same live read a delete plans with: {@link Action#ABSENT} (no row),
 * {@link Action#SKIP_WRITTEN_AFTER_CUTOFF} (any cell of the row newer than the cut-off, cleared column or not: the
 * same rule as a delete, since the row changed after the request), otherwise {@link Action#CLEAR_COLUMNS} with
 * {@code DELETE c1, c2 FROM t USING TIMESTAMP <cut-off> WHERE <full key>}.
 *
 * <p><b>Safety.</b> Only cell tombstones, never a row or partition delete: the row's other columns and its row
 * marker stay. They are written at the cut-off, so a cleared column written after it (even between plan and
 * execute) survives by last-write-wins. A row that has no row marker (written only with {@code UPDATE}) and no
 * live cell besides the cleared ones stops existing as a row, as Cassandra has no row without either; its
 * deletion record still restores the cells.
 */
public final class AnonymisingPlanner {

    private final LiveReads reads;

    public AnonymisingPlanner(LiveReads reads) {
        this.reads = reads;
    }

    public DeletePlan plan(TableShape shape, DeleteBatch batch) {
        requireClearable(shape, batch);
        String clear = shape.clearColumnsCql(batch.clearColumns());
        List<Map<String, Object>> keys = batch.keys();
        List<LiveState> states = reads.states(shape, keys);
        List<PlannedStatement> statements = new ArrayList<>();
        List<KeyDecision> decisions = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            LiveState state = states.get(i);
            Action action = !state.present()
                    ? Action.ABSENT
                    : state.writtenAfter(batch.cutoff()) ? Action.SKIP_WRITTEN_AFTER_CUTOFF : Action.CLEAR_COLUMNS;
            if (action == Action.CLEAR_COLUMNS) {
                List<Object> values = new ArrayList<>(shape.primaryKey().size() + 1);
                values.add(batch.cutoff().micros());
                values.addAll(shape.keyValues(shape.primaryKey(), keys.get(i)));
                statements.add(new PlannedStatement(clear, values));
            }
            decisions.add(new KeyDecision(keys.get(i), action));
        }
        return new DeletePlan(batch, statements, decisions);
    }

    /** Every clear column must be a regular column of the table (key columns are refused by the batch itself). */
    static void requireClearable(TableShape shape, DeleteBatch batch) {
        for (String column : batch.clearColumns()) {
            if (!shape.regular().containsKey(column)) {
                String what = shape.keyTypes().containsKey(column) ? "is a key column of" : "is not a column of";
                throw new StoreException.Fatal("batch " + batch.batchId() + " clears column '" + column + "', which "
                        + what + " " + shape.spec().quotedTable() + " (regular columns: "
                        + shape.regular().keySet()
                        + "); fix the dataset's clear columns, or add the column to the table");
            }
        }
    }
}
