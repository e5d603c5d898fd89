package io.erasure.store.postgres.plan;

import io.erasure.store.postgres.json.JsonValues;
import io.erasure.store.postgres.schema.ClearableColumns;
import io.erasure.store.postgres.schema.CutoffGuard;
import io.erasure.store.postgres.sql.ClearColumnsSql;
import io.erasure.store.postgres.sql.DatasetSql;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.PlannedStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans an anonymising batch ({@link DeleteBatch#anonymising()}) with one read-only query, as {@link DeletePlanner}
 * plans a delete: per key ABSENT, SKIP_WRITTEN_AFTER_CUTOFF (the row itself was written after the cut-off; its
 * subtree does not matter, it is not touched) or CLEAR_COLUMNS; then the keys to clear cut into statements of
 * {@code batchSize} keys, each its own transaction.
 *
 * <p>Only CLEAR_COLUMNS keys reach a statement, and each statement repeats the cut-off condition, so a row written
 * between plan and execute keeps its values. Columns that cannot be cleared are refused before anything is read
 * ({@link ClearableColumns}).
 */
public final class ClearPlanner {

    private final int batchSize;

    public ClearPlanner(int batchSize) {
        this.batchSize = batchSize;
    }

    public DeletePlan plan(Connection connection, DatasetSql sql, DeleteBatch batch) throws SQLException {
        ClearableColumns.require(sql.shape(), batch.clearColumns());
        ClearColumnsSql clearing = sql.clearing();
        CutoffGuard guard = sql.shape().guard();
        OffsetDateTime cutoff = OffsetDateTime.ofInstant(batch.cutoff().toInstant(), ZoneOffset.UTC);
        List<KeyDecision> decisions = new ArrayList<>(batch.keys().size());
        List<Map<String, Object>> toClear = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(clearing.planQuery())) {
            statement.setString(1, JsonValues.documents(sql.shape().table(), batch.keys()));
            if (clearing.usesCutoff()) {
                statement.setObject(2, cutoff);
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> key = batch.keys().get(rs.getInt("ord") - 1);
                    Action action;
                    if (!rs.getBoolean("present")) {
                        action = Action.ABSENT;
                    } else if (rs.getBoolean("blocked")) {
                        action = Action.SKIP_WRITTEN_AFTER_CUTOFF;
                    } else if (guard.kind() == CutoffGuard.Kind.VERSION) {
                        // as for a delete: the clear requires the version read here, and a NULL proves nothing
                        Object version = rs.getObject("current_version");
                        action = version == null ? Action.SKIP_WRITTEN_AFTER_CUTOFF : Action.CLEAR_COLUMNS;
                        if (version != null) {
                            Map<String, Object> withVersion = new LinkedHashMap<>(key);
                            withVersion.put(guard.column(), version);
                            toClear.add(withVersion);
                        }
                    } else {
                        action = Action.CLEAR_COLUMNS;
                        toClear.add(key);
                    }
                    decisions.add(new KeyDecision(key, action));
                }
            }
        }
        String text = clearing.clearStatement(batch.clearColumns());
        List<PlannedStatement> statements = new ArrayList<>();
        for (int from = 0; from < toClear.size(); from += batchSize) {
            List<Map<String, Object>> chunk = toClear.subList(from, Math.min(toClear.size(), from + batchSize));
            List<Object> values = new ArrayList<>(2);
            values.add(JsonValues.documents(sql.shape().table(), chunk));
            if (clearing.usesCutoff()) {
                values.add(cutoff);
            }
            statements.add(new PlannedStatement(text, values));
        }
        return new DeletePlan(batch, statements, decisions);
    }
}
