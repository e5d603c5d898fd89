package io.erasure.store.postgres.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The version of the catalog a dataset was checked against: the oids of its tables and a digest of every catalog
 * row the check depends on, made of each row's {@code xmin}. Any DDL that could change the check's answer (a column
 * added, dropped, renamed or retyped, a foreign key onto or from one of the tables, a new primary key, the table
 * dropped and created again) writes one of those rows, so it gets a new {@code xmin} and the digest changes. Some
 * changes that cannot matter (a GRANT) change it too: they only cost a re-check.
 *
 * <p>The digest covers, for the dataset's tables: their {@code pg_class} rows, their columns ({@code pg_attribute},
 * dropped ones included) and the types of those columns (a domain's NOT NULL), their indexes ({@code pg_index}), and
 * every constraint of them or onto them ({@code pg_constraint}, {@code conrelid} or {@code confrelid}).
 */
public record SchemaVersion(List<Long> tableOids, String digest) {

    /** For shapes built without a catalog (SQL text tests): never current. */
    public static final SchemaVersion UNKNOWN = new SchemaVersion(List.of(), "unknown");

    public SchemaVersion {
        tableOids = List.copyOf(tableOids);
        if (digest == null || digest.isBlank()) {
            throw new IllegalArgumentException("a schema version needs a digest");
        }
    }

    /**
     * The digest of the catalog as it is now, as an SQL expression (a scalar subquery); the oids are the catalog's
     * own numbers, so nothing user-supplied is spliced.
     */
    public String digestExpression() {
        String oids = tableOids.isEmpty()
                ? "0"
                : tableOids.stream().map(String::valueOf).collect(Collectors.joining(", "));
        return "(SELECT coalesce(md5(string_agg(e, ',' ORDER BY e)), '') FROM ("
                + "SELECT 'c' || c.oid || ':' || c.xmin FROM pg_catalog.pg_class AS c WHERE c.oid IN (" + oids + ")"
                + " UNION ALL SELECT 'a' || a.attrelid || '.' || a.attnum || ':' || a.xmin"
                + " FROM pg_catalog.pg_attribute AS a WHERE a.attrelid IN (" + oids + ") AND a.attnum > 0"
                + " UNION ALL SELECT 'y' || y.oid || ':' || y.xmin FROM pg_catalog.pg_type AS y WHERE y.oid IN"
                + " (SELECT a.atttypid FROM pg_catalog.pg_attribute AS a WHERE a.attrelid IN (" + oids
                + ") AND a.attnum > 0)"
                + " UNION ALL SELECT 'i' || i.indexrelid || ':' || i.xmin FROM pg_catalog.pg_index AS i"
                + " WHERE i.indrelid IN (" + oids + ")"
                + " UNION ALL SELECT 'k' || k.oid || ':' || k.xmin FROM pg_catalog.pg_constraint AS k"
                + " WHERE k.conrelid IN (" + oids + ") OR k.confrelid IN (" + oids + ")) AS s(e))";
    }

    /** The version of {@code tables} now. */
    public static SchemaVersion read(Connection connection, List<TableSchema> tables) throws SQLException {
        List<Long> oids = tables.stream().map(TableSchema::oid).toList();
        return new SchemaVersion(oids, digestOf(connection, new SchemaVersion(oids, "pending").digestExpression()));
    }

    /** True if the catalog still is at this version: one cheap query. */
    public boolean isCurrent(Connection connection) throws SQLException {
        return !tableOids.isEmpty() && digest.equals(digestOf(connection, digestExpression()));
    }

    private static String digestOf(Connection connection, String expression) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT " + expression);
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }
}
