package io.erasure.backup.export.postgres;

import io.erasure.backup.export.snapshot.TableExport;
import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.Csv;
import io.erasure.backup.format.PartWriter;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.check.Names;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.KeyColumns;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A PostgreSQL table read with {@code COPY ... TO STDOUT}, {@code rowsPerPart} rows per part in
 * primary-key order, each part starting after the last key of the previous one (keyset paging:
 * every part is an index range scan, whatever the table's size). JSON Lines parts take PostgreSQL's
 * own {@code row_to_json} lines as they are; CSV parts take {@code COPY (FORMAT csv)} records.
 * Timestamps are exported in UTC, ISO-8601. The connection is read-only; the cursor is the last
 * key of the previous part as JSON.
 */
public final class PostgresTableExport implements TableExport {

    private final Connection connection;
    private final String qualified;
    private final String schemaName;
    private final String table;
    private final BackupFormat format;
    private final int rowsPerPart;
    private final BackupSchema schema;
    private final List<String> key;

    public PostgresTableExport(
            Connection connection,
            String schemaName,
            String table,
            String identifierColumn,
            BackupFormat format,
            int rowsPerPart)
            throws SQLException {
        this.connection = connection;
        this.schemaName = Names.identifier("schema", schemaName);
        this.table = Names.identifier("table", table);
        this.qualified = Names.quotedQualified(schemaName, table);
        this.format = format;
        if (rowsPerPart < 1) {
            throw new IllegalArgumentException("rowsPerPart must be >= 1, got " + rowsPerPart);
        }
        this.rowsPerPart = rowsPerPart;
        connection.setReadOnly(true);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET TIME ZONE 'UTC'");
        }
        this.key = primaryKey();
        this.schema = new BackupSchema(columns(), KeyColumns.of(key, List.of()), identifierColumn);
    }

    @Override
    public BackupSchema schema() {
        return schema;
    }

    @Override
    public List<String> writeTimeColumns() {
        return List.of();
    }

    /** The COPY statement of the part after {@code cursor} (for logs and tests). */
    public String copySql(String cursor) {
        String columns =
                schema.columns().stream().map(c -> Names.quoted(c.name())).collect(Collectors.joining(", "));
        String keyList = key.stream().map(Names::quoted).collect(Collectors.joining(", "));
        String after = cursor == null
                ? ""
                : " WHERE (" + keyList + ") > (SELECT " + keyList + " FROM json_populate_record(NULL::" + qualified
                        + ", " + literal(cursor) + "::json))";
        String select =
                "SELECT " + columns + " FROM " + qualified + after + " ORDER BY " + keyList + " LIMIT " + rowsPerPart;
        return format == BackupFormat.CSV
                ? "COPY (" + select + ") TO STDOUT WITH (FORMAT csv)"
                : "COPY (SELECT row_to_json(t) FROM (" + select + ") t) TO STDOUT";
    }

    @Override
    public String writePart(String cursor, PartWriter part, RowRateLimiter limiter)
            throws IOException, InterruptedException {
        byte[] last = null;
        int lastLength = 0;
        int rows = 0;
        try {
            CopyOut copy = connection.unwrap(PGConnection.class).getCopyAPI().copyOut(copySql(cursor));
            try {
                for (byte[] row = copy.readFromCopy(); row != null; row = copy.readFromCopy()) {
                    limiter.acquire(1);
                    int length = format == BackupFormat.CSV ? row.length : unescapeTextCopy(row);
                    if (format == BackupFormat.CSV) {
                        part.writeCsvRecord(row, 0, length);
                    } else {
                        part.writeJsonLine(row, 0, length);
                    }
                    last = row;
                    lastLength = length;
                    rows++;
                }
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
        } catch (SQLException e) {
            throw new IOException("COPY of " + qualified + " failed: " + e.getMessage(), e);
        }
        return rows < rowsPerPart ? null : keyOf(last, lastLength);
    }

    /** COPY's text format doubles backslashes (JSON has no raw control characters); undoes it in place. */
    static int unescapeTextCopy(byte[] row) {
        int length = row.length > 0 && row[row.length - 1] == '\n' ? row.length - 1 : row.length;
        int out = 0;
        for (int i = 0; i < length; i++) {
            byte c = row[i];
            if (c == '\\' && i + 1 < length) {
                byte next = row[++i];
                c = switch (next) {
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'v' -> 0x0b;
                    default -> next;
                };
            }
            row[out++] = c;
        }
        return out;
    }

    private String keyOf(byte[] lastRow, int length) {
        ObjectNode cursor = BackupJson.MAPPER.createObjectNode();
        if (format == BackupFormat.CSV) {
            List<String> fields;
            try {
                fields = new Csv.RecordReader(new StringReader(new String(lastRow, 0, length, StandardCharsets.UTF_8)))
                        .next();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<String> names =
                    schema.columns().stream().map(ColumnSchema::name).toList();
            for (String column : key) {
                cursor.put(column, fields.get(names.indexOf(column)));
            }
        } else {
            JsonNode row = BackupJson.MAPPER.readTree(lastRow, 0, length);
            for (String column : key) {
                cursor.set(column, row.get(column));
            }
        }
        return cursor.toString();
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private List<String> primaryKey() throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("""
                SELECT a.attname FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                WHERE i.indrelid = (quote_ident(?) || '.' || quote_ident(?))::regclass AND i.indisprimary
                ORDER BY array_position(i.indkey::int2[], a.attnum)""")) {
            statement.setString(1, schemaName);
            statement.setString(2, table);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new BackupIntegrityException(
                    "table " + qualified + " has no primary key: keyset paging and deletes need one");
        }
        return columns;
    }

    private List<ColumnSchema> columns() throws SQLException {
        List<ColumnSchema> columns = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("""
                SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                WHERE a.attrelid = (quote_ident(?) || '.' || quote_ident(?))::regclass AND a.attnum > 0
                    AND NOT a.attisdropped
                ORDER BY a.attnum""")) {
            statement.setString(1, schemaName);
            statement.setString(2, table);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.add(new ColumnSchema(rows.getString(1), rows.getString(2)));
                }
            }
        }
        return columns;
    }

    @Override
    public void close() {
        // the connection belongs to the caller
    }
}
