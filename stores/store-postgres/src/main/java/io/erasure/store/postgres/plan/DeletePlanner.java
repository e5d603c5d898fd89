package io.erasure.store.postgres.plan;

import io.erasure.store.postgres.json.JsonValues;
import io.erasure.store.postgres.schema.CutoffGuard;
import io.erasure.store.postgres.schema.DatasetShape;
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
 * Plans a delete with one read-only query and no change: per key ABSENT, SKIP_WRITTEN_AFTER_CUTOFF (the row,
 * a row of its subtree or a child row was written after the cut-off) or DELETE_ROW; then the keys to delete cut
 * into statements of {@code batchSize} keys, each executed as its own transaction.
 *
 * <p>Only DELETE_ROW keys reach a statement, so a row that appears after the plan is never deleted by it. For a
 * VERSION guard each key carries the version read here and the delete requires it unchanged; a row whose
 * version is NULL is skipped (nothing proves it unchanged).
 *
 * <p>Each key also carries the digest of the rows its delete removes as they are now (its unit: see
 * {@link DatasetSql}): the delete removes them only while they are all, and only, those row versions. The deletion
 * service reads the rows for the log after planning, so a row written after the plan (before or after the read) is
 * never deleted by it, whatever guard the dataset has; a row written between plan and read is logged but kept.
 */
public final class DeletePlanner {

    private final int batchSize;

    public DeletePlanner(int batchSize) {
        this.batchSize = batchSize;
    }

    public DeletePlan plan(Connection connection, DatasetSql sql, DeleteBatch batch) throws SQLException {
        return planKeys(
                connection,
                sql,
                batch,
                sql.planQuery(),
                sql.shape().usesCutoff(),
                Action.DELETE_ROW,
                sql.deleteStatement(),
                batchSize,
                true,
                List.of(sql.shape().schema().digest()));
    }

    /**
     * The planning both a delete and a clear ({@link ClearPlanner}) share: {@code planQuery} decides each key, the keys
     * that {@code change} cut into {@code statement}s of {@code batchSize} keys, each with the cut-off when
     * {@code usesCutoff}, then, when {@code withUnits}, the planned unit digests of the chunk's keys (a JSON array),
     * then {@code trailing} values.
     */
    static DeletePlan planKeys(
            Connection connection,
            DatasetSql sql,
            DeleteBatch batch,
            String planQuery,
            boolean usesCutoff,
            Action change,
            String statement,
            int batchSize,
            boolean withUnits,
            List<Object> trailing)
            throws SQLException {
        CutoffGuard guard = sql.shape().guard();
        OffsetDateTime cutoff = OffsetDateTime.ofInstant(batch.cutoff().toInstant(), ZoneOffset.UTC);
        List<KeyDecision> decisions = new ArrayList<>(batch.keys().size());
        List<Map<String, Object>> toChange = new ArrayList<>();
        List<String> units = new ArrayList<>();
        KeptNodes kept = new KeptNodes();
        try (PreparedStatement query = connection.prepareStatement(planQuery)) {
            query.setString(1, JsonValues.documents(sql.shape().table(), batch.keys()));
            if (usesCutoff) {
                query.setObject(2, cutoff);
            }
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> key = batch.keys().get(rs.getInt("ord") - 1);
                    Action action;
                    if (!rs.getBoolean("present")) {
                        action = Action.ABSENT;
                    } else if (rs.getBoolean("blocked")) {
                        action = Action.SKIP_WRITTEN_AFTER_CUTOFF;
                    } else if (guard.kind() == CutoffGuard.Kind.VERSION) {
                        Object version = rs.getObject("current_version");
                        action = version == null ? Action.SKIP_WRITTEN_AFTER_CUTOFF : change;
                        if (version != null) {
                            Map<String, Object> withVersion = new LinkedHashMap<>(key);
                            withVersion.put(guard.column(), version);
                            toChange.add(withVersion);
                            units.add(withUnits ? rs.getString("unit_digest") : null);
                        }
                    } else {
                        action = change;
                        toChange.add(key);
                        units.add(withUnits ? rs.getString("unit_digest") : null);
                    }
                    decisions.add(new KeyDecision(key, action));
                    if (withUnits && action != Action.ABSENT) {
                        kept.add(action == change, rs.getLong("kept_nodes"));
                    }
                }
            }
        }
        List<PlannedStatement> statements = new ArrayList<>();
        for (int from = 0; from < toChange.size(); from += batchSize) {
            List<Map<String, Object>> chunk = toChange.subList(from, Math.min(toChange.size(), from + batchSize));
            List<Object> values = new ArrayList<>(4);
            values.add(JsonValues.documents(sql.shape().table(), chunk));
            if (usesCutoff) {
                values.add(cutoff);
            }
            if (withUnits) {
                values.add(digests(units.subList(from, Math.min(toChange.size(), from + batchSize))));
            }
            values.addAll(trailing);
            statements.add(new PlannedStatement(statement, values));
        }
        return new DeletePlan(batch, statements, decisions, kept.warnings(sql.shape()));
    }

    /** Tree nodes of other identifiers that keys of the plan keep (under a key deleted, or with the key kept whole). */
    private static final class KeptNodes {
        private long nodesUnderDeleted;
        private int keysDeleted;
        private long nodesUnderKept;
        private int keysKept;

        void add(boolean deleted, long nodes) {
            if (nodes == 0) {
                return;
            }
            if (deleted) {
                nodesUnderDeleted += nodes;
                keysDeleted++;
            } else {
                nodesUnderKept += nodes;
                keysKept++;
            }
        }

        List<String> warnings(DatasetShape shape) {
            String dataset = shape.spec().name();
            String declare = "if the nodes under a key have no identifier of their own, declare hierarchy." + dataset
                    + ".tree.node-identifier = inherited";
            List<String> warnings = new ArrayList<>();
            if (keysDeleted > 0) {
                warnings.add(
                        nodesUnderDeleted + " tree node(s) of other identifiers (or of none) were kept, with everything"
                                + " under them, under " + keysDeleted + " key(s) of dataset '" + dataset
                                + "' whose own nodes are deleted:"
                                + " a subtree delete removes only the nodes of its key's identifier; " + declare);
            }
            if (keysKept > 0 && !shape.selfReferences().isEmpty()) {
                warnings.add(keysKept + " key(s) kept whole: their subtrees in "
                        + shape.table().qualifiedName() + " hold "
                        + nodesUnderKept + " node(s) of other identifiers (or of none), and the foreign key "
                        + shape.selfReferences().get(0).constraint() + " ("
                        + shape.selfReferences().get(0).onDeleteText()
                        + ") of the table onto itself would cascade into, change or refuse on them if the nodes above"
                        + " them were deleted; " + declare + ", or move those nodes");
            }
            return warnings;
        }
    }

    /** A JSON array of the digests (md5 hex, or null where the plan found none: such a key never matches). */
    private static String digests(List<String> units) {
        StringBuilder json = new StringBuilder("[");
        for (String unit : units) {
            if (json.length() > 1) {
                json.append(',');
            }
            if (unit == null || !unit.matches("[0-9a-f]{32}")) {
                json.append("null");
            } else {
                json.append('"').append(unit).append('"');
            }
        }
        return json.append(']').toString();
    }
}
