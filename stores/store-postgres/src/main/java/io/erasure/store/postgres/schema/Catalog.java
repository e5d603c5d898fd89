package io.erasure.store.postgres.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads table descriptions from {@code pg_catalog}; names are bound as values, never spliced into SQL. */
public final class Catalog {

    private static final String TABLE_OID = """
            SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p')""";

    private static final String COLUMNS = """
            SELECT a.attname, bt.typname, a.attgenerated <> '' AS generated, a.attidentity = 'a' AS identity_always,
                   a.attnotnull OR t.typnotnull AS not_null
            FROM pg_attribute a
            JOIN pg_type t ON t.oid = a.atttypid
            JOIN pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
            WHERE a.attrelid = ? AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum""";

    private static final String PRIMARY_KEY = """
            SELECT a.attname FROM pg_index i
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
            WHERE i.indrelid = ? AND i.indisprimary
            ORDER BY array_position(i.indkey::int2[], a.attnum)""";

    private static final String REFERENCED_BY = """
            SELECT n.nspname, c.relname, con.conname, con.confdeltype
            FROM pg_constraint con
            JOIN pg_class c ON c.oid = con.conrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE con.contype = 'f' AND con.confrelid = ? AND con.conparentid = 0
            ORDER BY n.nspname, c.relname, con.conname""";

    private Catalog() {}

    /** The table {@code namespace.table} (ordinary or partitioned), or empty if there is none. */
    public static Optional<TableSchema> read(Connection connection, String namespace, String table)
            throws SQLException {
        Long oid = null;
        try (PreparedStatement statement = connection.prepareStatement(TABLE_OID)) {
            statement.setString(1, namespace);
            statement.setString(2, table);
            try (ResultSet rs = statement.executeQuery()) {
                if (rs.next()) {
                    oid = rs.getLong(1);
                }
            }
        }
        if (oid == null) {
            return Optional.empty();
        }
        List<ColumnInfo> columns = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(COLUMNS)) {
            statement.setLong(1, oid);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    columns.add(new ColumnInfo(
                            rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getBoolean(4), rs.getBoolean(5)));
                }
            }
        }
        List<String> primaryKey = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(PRIMARY_KEY)) {
            statement.setLong(1, oid);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    primaryKey.add(rs.getString(1));
                }
            }
        }
        List<TableSchema.Reference> referencedBy = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(REFERENCED_BY)) {
            statement.setLong(1, oid);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    referencedBy.add(new TableSchema.Reference(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getString(4).charAt(0)));
                }
            }
        }
        return Optional.of(new TableSchema(namespace, table, columns, primaryKey, referencedBy, oid));
    }
}
