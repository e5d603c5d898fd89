package io.erasure.store.postgres.restore;

import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.postgres.json.JsonValues;
import io.erasure.store.postgres.schema.ColumnInfo;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.schema.TableSchema;
import io.erasure.store.postgres.sql.ClearColumnsSql;
import io.erasure.store.postgres.sql.DatasetSql;
import io.erasure.store.postgres.sql.SqlFailures;
import io.erasure.store.postgres.tree.Hierarchy;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Restores an anonymised record ({@link DeletionRecord#anonymised()}): it holds only the values the anonymisation
 * cleared, and only those columns are put back, in one UPDATE that requires each of them still NULL and the row not
 * written after the record's cut-off ({@link ClearColumnsSql#restoreStatement}). So newer data is never overwritten:
 * <ul>
 *   <li>one row updated → {@link Status#RESTORED};</li>
 *   <li>none, the row exists → {@link Status#NEWER_DATA_KEPT}: written after the cut-off or a column set again (or
 *       restored before: the detail then says "already restored");</li>
 *   <li>none, no row → {@link Status#FAILED}: the row was deleted after it was anonymised; the columns have no row to
 *       go back into, and inserting one would bring back a row that a later delete removed. Restoring that delete's
 *       record first (in the same or an earlier call) gives the columns their row again.</li>
 * </ul>
 */
final class ColumnRestorer {

    private ColumnRestorer() {}

    static RecordOutcome restore(Connection connection, DatasetShape shape, ClearColumnsSql sql, DeletionRecord record)
            throws SQLException {
        Optional<String> refusal = refusal(shape, record);
        if (refusal.isPresent()) {
            return outcome(record, Status.FAILED, refusal.get());
        }
        TableSchema table = shape.table();
        List<String> columns = record.columns().stream().map(ColumnValue::name).toList();
        Map<String, Object> values = new LinkedHashMap<>(record.primaryKey());
        record.columns().forEach(column -> values.put(column.name(), column.value()));
        String document = JsonValues.document(table, values);
        try {
            try (PreparedStatement update = connection.prepareStatement(sql.restoreStatement(columns))) {
                int index = 1;
                if (sql.usesCutoff()) {
                    update.setObject(
                            index++, OffsetDateTime.ofInstant(record.cutoff().toInstant(), ZoneOffset.UTC));
                }
                update.setString(index, document);
                if (update.executeUpdate() == 1) {
                    return outcome(record, Status.RESTORED, null);
                }
            }
            try (PreparedStatement current = connection.prepareStatement(DatasetSql.currentRowQuery(table))) {
                current.setString(1, document);
                try (ResultSet rs = current.executeQuery()) {
                    if (!rs.next()) {
                        return outcome(
                                record,
                                Status.FAILED,
                                "no row with this key: it was deleted after it was anonymised,"
                                        + " and its cleared columns are not put back without it;"
                                        + " restore that delete's record first");
                    }
                    boolean same = sameValues(JsonValues.row(table, rs.getString(1)), values);
                    return outcome(
                            record,
                            Status.NEWER_DATA_KEPT,
                            same
                                    ? "already restored: the row holds the record's values"
                                    : "the row was written after the cut-off or a cleared column was set again;"
                                            + " it was kept, not overwritten");
                }
            }
        } catch (SQLException e) {
            if (SqlFailures.isRetriable(e)) {
                throw e;
            }
            return outcome(record, Status.FAILED, e.getMessage());
        }
    }

    private static Optional<String> refusal(DatasetShape shape, DeletionRecord record) {
        if (record.primaryKey().containsKey(Hierarchy.TABLE_MARKER)) {
            return Optional.of(
                    "an anonymised record of a child-table row: anonymisation clears only the dataset's own rows");
        }
        if (!record.primaryKey().keySet().equals(Set.copyOf(shape.table().primaryKey()))) {
            return Optional.of("the record's key " + record.primaryKey().keySet() + " is not the primary key "
                    + shape.table().primaryKey() + " of " + shape.table().qualifiedName());
        }
        for (ColumnValue column : record.columns()) {
            Optional<ColumnInfo> info = shape.table().column(column.name());
            if (info.isEmpty()
                    || info.get().generated()
                    || shape.table().primaryKey().contains(column.name())
                    || column.name().equals(shape.guard().column())) {
                return Optional.of("column '" + column.name() + "' of the record is not a column of "
                        + shape.table().qualifiedName() + " that anonymisation clears");
            }
        }
        return Optional.empty();
    }

    private static boolean sameValues(Map<String, Object> current, Map<String, Object> restored) {
        Map<String, Object> compared = new HashMap<>();
        restored.keySet().forEach(column -> compared.put(column, current.get(column)));
        return CanonicalKey.render(compared).equals(CanonicalKey.render(restored));
    }

    private static RecordOutcome outcome(DeletionRecord record, Status status, String detail) {
        return new RecordOutcome(record.recordId(), record.primaryKey(), status, detail);
    }
}
