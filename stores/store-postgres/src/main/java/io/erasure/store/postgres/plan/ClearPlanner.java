package io.erasure.store.postgres.plan;

import io.erasure.store.postgres.schema.ClearableColumns;
import io.erasure.store.postgres.sql.ClearColumnsSql;
import io.erasure.store.postgres.sql.DatasetSql;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Plans an anonymising batch ({@link DeleteBatch#anonymising()}) with one read-only query, as {@link DeletePlanner}
 * plans a delete: per key ABSENT, SKIP_WRITTEN_AFTER_CUTOFF (the row itself was written after the cut-off; its
 * subtree does not matter, it is not touched) or CLEAR_COLUMNS; then the keys to clear cut into statements of
 * {@code batchSize} keys, each its own transaction.
 *
 * <p>Only CLEAR_COLUMNS keys reach a statement, and each statement repeats the cut-off condition and requires the row
 * version planned, so a row written between plan and execute keeps its values (whatever the guard). Columns that cannot
 * be cleared are refused before anything is read ({@link ClearableColumns}).
 */
public final class ClearPlanner {

    private final int batchSize;

    public ClearPlanner(int batchSize) {
        this.batchSize = batchSize;
    }

    public DeletePlan plan(Connection connection, DatasetSql sql, DeleteBatch batch) throws SQLException {
        ClearableColumns.require(sql.shape(), batch.clearColumns());
        ClearColumnsSql clearing = sql.clearing();
        // as for a delete: the clear requires the version read here, and a NULL version proves nothing
        return DeletePlanner.planKeys(
                connection,
                sql,
                batch,
                clearing.planQuery(),
                clearing.usesCutoff(),
                Action.CLEAR_COLUMNS,
                clearing.clearStatement(batch.clearColumns()),
                batchSize,
                true,
                List.of());
    }
}
