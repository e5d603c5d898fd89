package io.erasure.store.postgres.restore;

import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.postgres.json.JsonValues;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.schema.TableSchema;
import io.erasure.store.postgres.sql.DatasetSql;
import io.erasure.store.postgres.sql.SqlFailures;
import io.erasure.store.postgres.tree.Hierarchy;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Restores rows from deletion records by inserting each where its key is absent
 * ({@code INSERT ... ON CONFLICT (primary key) DO NOTHING}), one transaction per row: a row that exists was
 * written after the delete (or restored before) and is kept and reported, never overwritten. PostgreSQL has no
 * TTLs, so nothing is EXPIRED.
 *
 * <p>Parents go in before children whatever the order of the records: the dataset's rows first (a tree's from the
 * top down), child-table rows after; a row refused by a foreign key is tried again after the others, until a round
 * restores nothing more. A row whose parent is still absent then is PARENT_MISSING (its parent's record may come in a
 * later call), any other refusal FAILED, each with PostgreSQL's message.
 *
 * <p>Records of anonymisations ({@link DeletionRecord#anonymised()}) put back only their columns into the existing
 * row ({@link ColumnRestorer}), after the rows of the other records.
 */
public final class RowRestorer {

    private RowRestorer() {}

    public static RestoreOutcome restore(Connection connection, DatasetSql sql, List<DeletionRecord> records)
            throws SQLException {
        DatasetShape shape = sql.shape();
        connection.setAutoCommit(true);
        RecordOutcome[] outcomes = new RecordOutcome[records.size()];
        List<Pending> pending = new ArrayList<>();
        List<Integer> anonymised = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            DeletionRecord record = records.get(i);
            Optional<String> refusal = refusal(shape, record);
            if (refusal.isPresent()) {
                outcomes[i] = new RecordOutcome(record.recordId(), record.primaryKey(), Status.FAILED, refusal.get());
            } else if (record.anonymised()) {
                anonymised.add(i);
            } else {
                pending.add(pending(shape, i, record));
            }
        }
        restoreRows(connection, shape, pending, outcomes);
        // after the rows: a row deleted after it was anonymised is back before its cleared columns are put into it
        for (int i : anonymised) {
            outcomes[i] = ColumnRestorer.restore(connection, shape, sql.clearing(), records.get(i));
        }
        return new RestoreOutcome(List.of(outcomes));
    }

    private static void restoreRows(
            Connection connection, DatasetShape shape, List<Pending> pending, RecordOutcome[] outcomes)
            throws SQLException {
        pending = ParentsFirst.order(shape, pending);
        boolean progress = true;
        while (!pending.isEmpty() && progress) {
            progress = false;
            List<Pending> refusedByForeignKey = new ArrayList<>();
            for (Pending row : pending) {
                try {
                    outcomes[row.index()] = insert(connection, row);
                    progress |= outcomes[row.index()].status() == Status.RESTORED;
                } catch (SQLException e) {
                    if (SqlFailures.isRetriable(e)) {
                        throw e;
                    }
                    boolean parentMissing = SqlFailures.FOREIGN_KEY_VIOLATION.equals(e.getSQLState());
                    outcomes[row.index()] =
                            outcome(row, parentMissing ? Status.PARENT_MISSING : Status.FAILED, e.getMessage());
                    if (parentMissing) {
                        refusedByForeignKey.add(row);
                    }
                }
            }
            pending = refusedByForeignKey;
        }
    }

    private static RecordOutcome insert(Connection connection, Pending row) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(DatasetSql.restoreStatement(row.table()))) {
            insert.setString(1, row.document());
            if (insert.executeUpdate() == 1) {
                return outcome(row, Status.RESTORED, null);
            }
        }
        try (PreparedStatement current = connection.prepareStatement(DatasetSql.currentRowQuery(row.table()))) {
            current.setString(1, row.document());
            try (ResultSet rs = current.executeQuery()) {
                boolean same = rs.next() && sameValues(JsonValues.row(row.table(), rs.getString(1)), row.values());
                return outcome(
                        row,
                        Status.NEWER_DATA_KEPT,
                        same
                                ? "already restored: the row holds the record's values"
                                : "a row with this key was written after the delete; it was kept, not overwritten");
            }
        }
    }

    private static Optional<String> refusal(DatasetShape shape, DeletionRecord record) {
        if (!record.dataset().equals(shape.spec().name())) {
            return Optional.of("the record belongs to dataset '" + record.dataset() + "', not '"
                    + shape.spec().name() + "'");
        }
        if (record.columns().isEmpty()) {
            return Optional.of("the row's columns are retained in S3 at " + record.retainedRef()
                    + "; load them into the record before restoring");
        }
        Object marker = record.primaryKey().get(Hierarchy.TABLE_MARKER);
        if (marker != null && shape.child(marker.toString()).isEmpty()) {
            return Optional.of("the record is a row of " + marker + ", which is not a child table of dataset '"
                    + shape.spec().name() + "'");
        }
        return Optional.empty();
    }

    private static Pending pending(DatasetShape shape, int index, DeletionRecord record) {
        Object marker = record.primaryKey().get(Hierarchy.TABLE_MARKER);
        TableSchema table = marker == null
                ? shape.table()
                : shape.child(marker.toString()).orElseThrow().table();
        Map<String, Object> values = new LinkedHashMap<>();
        record.primaryKey().forEach((column, value) -> {
            if (!column.equals(Hierarchy.TABLE_MARKER)) {
                values.put(column, value);
            }
        });
        for (ColumnValue column : record.columns()) {
            values.put(column.name(), column.value());
        }
        return new Pending(index, record, table, marker != null, values, JsonValues.document(table, values));
    }

    private static boolean sameValues(Map<String, Object> current, Map<String, Object> restored) {
        Map<String, Object> compared = new HashMap<>();
        restored.keySet().forEach(column -> compared.put(column, current.get(column)));
        return CanonicalKey.render(compared).equals(CanonicalKey.render(restored));
    }

    private static RecordOutcome outcome(Pending row, Status status, String detail) {
        return new RecordOutcome(row.record().recordId(), row.record().primaryKey(), status, detail);
    }

    record Pending(
            int index,
            DeletionRecord record,
            TableSchema table,
            boolean child,
            Map<String, Object> values,
            String document) {}
}
