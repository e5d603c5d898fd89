package io.erasure.store.postgres.read;

import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.postgres.json.JsonValues;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.schema.TableSchema;
import io.erasure.store.postgres.sql.DatasetSql;
import io.erasure.store.postgres.tree.Hierarchy;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Point reads by key. {@link #readRows} returns every row a delete of the keys would remove, so each reaches the
 * write-ahead log first: the keys' rows (keyed as requested), then, for a tree, every subtree row (keyed by the
 * dataset's key columns), and every child row (keyed by the child's primary key plus
 * {@link Hierarchy#TABLE_MARKER}). Every column is returned, key columns included; PostgreSQL has no per-column
 * write times or TTLs, so those are null, and the row's last write is its updated_at column.
 */
public final class RowReader {

    private RowReader() {}

    public static List<LiveRow> readRows(Connection connection, DatasetSql sql, List<Map<String, Object>> keys)
            throws SQLException {
        DatasetShape shape = sql.shape();
        Map<String, LiveRow> rows = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(sql.readQuery())) {
            statement.setString(1, JsonValues.documents(shape.table(), keys));
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    int source = rs.getInt("source");
                    boolean root = rs.getBoolean("is_root");
                    long micros = rs.getLong("write_micros");
                    Long lastWrite = rs.wasNull() ? null : micros;
                    TableSchema table = source < 0
                            ? shape.table()
                            : shape.children().get(source).table();
                    Map<String, Object> values = JsonValues.row(table, rs.getString("doc"));
                    Map<String, Object> storedKey = keyOf(table, values);
                    Map<String, Object> key;
                    if (source >= 0) {
                        key = new LinkedHashMap<>();
                        key.put(
                                Hierarchy.TABLE_MARKER,
                                shape.children().get(source).declared().qualifiedName());
                        key.putAll(storedKey);
                    } else {
                        key = root ? keys.get(rs.getInt("ord") - 1) : storedKey;
                    }
                    LiveRow row = new LiveRow(key, columns(values), lastWrite);
                    String identity = source + ":" + CanonicalKey.render(storedKey);
                    // a requested key inside another requested key's subtree is read twice: keep one, keyed as
                    // requested
                    if (!rows.containsKey(identity) || root) {
                        rows.put(identity, row);
                    }
                }
            }
        }
        return List.copyOf(rows.values());
    }

    public static List<LiveState> checkLiveState(Connection connection, DatasetSql sql, List<Map<String, Object>> keys)
            throws SQLException {
        List<LiveState> states = new ArrayList<>(keys.size());
        try (PreparedStatement statement = connection.prepareStatement(sql.liveStateQuery())) {
            statement.setString(1, JsonValues.documents(sql.shape().table(), keys));
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> key = keys.get(rs.getInt("ord") - 1);
                    long micros = rs.getLong("write_micros");
                    Long lastWrite = rs.wasNull() ? null : micros;
                    states.add(rs.getBoolean("present") ? new LiveState(key, true, lastWrite) : LiveState.absent(key));
                }
            }
        }
        return states;
    }

    private static Map<String, Object> keyOf(TableSchema table, Map<String, Object> values) {
        Map<String, Object> key = new LinkedHashMap<>();
        table.primaryKey().forEach(column -> key.put(column, values.get(column)));
        return key;
    }

    private static List<ColumnValue> columns(Map<String, Object> values) {
        List<ColumnValue> columns = new ArrayList<>(values.size());
        values.forEach((name, value) -> columns.add(ColumnValue.of(name, value)));
        return columns;
    }
}
