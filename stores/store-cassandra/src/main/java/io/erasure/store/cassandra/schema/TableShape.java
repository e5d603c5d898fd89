package io.erasure.store.cassandra.schema;

import com.datastax.oss.driver.api.core.type.DataType;
import io.erasure.model.check.Names;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.cassandra.json.CqlJson;
import io.erasure.store.cassandra.json.NonFiniteFloats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A dataset's table as checked against the live schema, and the CQL text of every statement the
 * adapter runs on it. Identifiers come from a validated {@link DatasetSpec} and the table's own
 * metadata, and are always quoted ({@link Names#quoted}); values are always bind markers.
 *
 * @param regular the regular (non-key, non-static) columns and their types, in the table's order
 */
public record TableShape(DatasetSpec spec, Map<String, DataType> keyTypes, Map<String, DataType> regular) {

    public TableShape {
        keyTypes = Collections.unmodifiableMap(new LinkedHashMap<>(keyTypes));
        regular = Collections.unmodifiableMap(new LinkedHashMap<>(regular));
    }

    public List<String> partitionKey() {
        return spec.keyColumns().partition();
    }

    public List<String> primaryKey() {
        return spec.keyColumns().primaryKey();
    }

    public boolean clustered() {
        return !spec.keyColumns().clustering().isEmpty();
    }

    /** Every column's type, key columns first. */
    public Map<String, DataType> allTypes() {
        Map<String, DataType> all = new LinkedHashMap<>(keyTypes);
        all.putAll(regular);
        return all;
    }

    /** Floats and doubles are read natively: {@code toJson} turns NaN and the infinities into null. */
    public boolean readNatively(String column) {
        return NonFiniteFloats.isFloatingPoint(regular.get(column));
    }

    /** Columns with floats or doubles inside are read both ways, to put non-finite values back into the JSON. */
    public boolean readBothWays(String column) {
        return NonFiniteFloats.nestsFloatingPoint(regular.get(column));
    }

    // --- statement text ---

    /**
     * A full row by primary key: per key column {@code toJson}; per regular column {@code toJson} (or the
     * native value for a float or double), the native value too where floats are nested
     * ({@link #readBothWays}), then {@code MAXWRITETIME} and {@code TTL}.
     */
    public String rowReadCql() {
        return "SELECT " + String.join(", ", rowSelectors()) + " FROM " + spec.quotedTable() + " WHERE "
                + where(primaryKey());
    }

    /**
     * Is the row there, its primary key as stored ({@code toJson} per key column), and its newest cell's write
     * time ({@code MAXWRITETIME} per regular column).
     */
    public String liveStateCql() {
        return "SELECT " + String.join(", ", liveStateSelectors()) + " FROM " + spec.quotedTable() + " WHERE "
                + where(primaryKey());
    }

    /**
     * The full rows of up to {@code terms} keys in one statement: {@link #rowReadCql}'s columns, then each key
     * column as stored (to tie a row to the key that asked for it). Values: the JSON of the
     * {@link #keySetEqualColumns} (shared by the keys), then per key the JSON of its {@link #keySetInColumns}.
     */
    public String rowsOfKeySetCql(int terms) {
        return "SELECT " + String.join(", ", rowSelectors()) + ", " + quotedList(primaryKey()) + " FROM "
                + spec.quotedTable() + " WHERE " + keySetWhere(terms);
    }

    /** {@link #liveStateCql} for up to {@code terms} keys in one statement, laid out as {@link #rowsOfKeySetCql}. */
    public String liveStatesOfKeySetCql(int terms) {
        return "SELECT " + String.join(", ", liveStateSelectors()) + ", " + quotedList(primaryKey()) + " FROM "
                + spec.quotedTable() + " WHERE " + keySetWhere(terms);
    }

    /**
     * The key columns the keys of one key-set statement share ({@code =}): the partition key of a table with
     * clustering columns (a statement reads one partition), else all partition columns but the last.
     */
    public List<String> keySetEqualColumns() {
        List<String> partition = partitionKey();
        return clustered() ? partition : partition.subList(0, partition.size() - 1);
    }

    /**
     * The key columns a key-set statement lists per key ({@code IN}): the clustering columns, else the last
     * partition column.
     */
    public List<String> keySetInColumns() {
        List<String> partition = partitionKey();
        return clustered() ? spec.keyColumns().clustering() : partition.subList(partition.size() - 1, partition.size());
    }

    /**
     * The stored clustering keys ({@code toJson} per clustering column) of up to {@code ?} rows of one partition,
     * to see whether it holds anything besides a batch's rows.
     */
    public String partitionProbeCql() {
        String clustering = spec.keyColumns().clustering().stream()
                .map(c -> "toJson(" + Names.quoted(c) + ")")
                .collect(Collectors.joining(", "));
        return "SELECT " + clustering + " FROM " + spec.quotedTable() + " WHERE " + where(partitionKey()) + " LIMIT ?";
    }

    /** One row delete at the cut-off: values {@code [cutoffMicros, key JSON...]}. */
    public String rowDeleteCql() {
        return "DELETE FROM " + spec.quotedTable() + " USING TIMESTAMP ? WHERE " + where(primaryKey());
    }

    /** One partition delete at the cut-off: values {@code [cutoffMicros, partition key JSON...]}. */
    public String partitionDeleteCql() {
        return "DELETE FROM " + spec.quotedTable() + " USING TIMESTAMP ? WHERE " + where(partitionKey());
    }

    /**
     * Clears {@code columns} of one row at the cut-off (anonymisation): values {@code [cutoffMicros, key JSON...]}.
     * Cell tombstones at the cut-off's timestamp: a cell written later survives, and the row itself is kept.
     */
    public String clearColumnsCql(List<String> columns) {
        return "DELETE " + quotedList(columns) + " FROM " + spec.quotedTable() + " USING TIMESTAMP ? WHERE "
                + where(primaryKey());
    }

    /** The newest write time of each of {@code columns} of one row ({@code MAXWRITETIME}, null when no live cell). */
    public String cellWriteTimesCql(List<String> columns) {
        String selectors = columns.stream()
                .map(c -> "MAXWRITETIME(" + Names.quoted(c) + ")")
                .collect(Collectors.joining(", "));
        return "SELECT " + selectors + " FROM " + spec.quotedTable() + " WHERE " + where(primaryKey());
    }

    /**
     * Puts back {@code columns} of one row and nothing else (no row marker, unlike {@code INSERT}): values
     * {@code [writeTimeMicros, ttlSeconds (0 = none), column JSON..., key JSON...]}.
     */
    public String restoreCellsCql(List<String> columns) {
        String assignments =
                columns.stream().map(c -> Names.quoted(c) + " = fromJson(?)").collect(Collectors.joining(", "));
        return "UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? AND TTL ? SET " + assignments + " WHERE "
                + where(primaryKey());
    }

    /**
     * The stored primary keys ({@code toJson} per key column) of the rows whose {@code column} equals {@code ?}:
     * only run where that is a partition read or an indexed read (see {@code lookup.IdentifierRoute}).
     */
    public String keysByValueCql(String column) {
        String selectors = primaryKey().stream()
                .map(c -> "toJson(" + Names.quoted(c) + ")")
                .collect(Collectors.joining(", "));
        return "SELECT " + selectors + " FROM " + spec.quotedTable() + " WHERE " + where(List.of(column));
    }

    /** Restores columns sharing one TTL: values {@code [row JSON, writeTimeMicros, ttlSeconds (0 = none)]}. */
    public String restoreCql() {
        return "INSERT INTO " + spec.quotedTable() + " JSON ? DEFAULT UNSET USING TIMESTAMP ? AND TTL ?";
    }

    /** Restores a row that had only key columns; no TTL given, so the table's default TTL applies as it did. */
    public String restoreKeyOnlyCql() {
        return "INSERT INTO " + spec.quotedTable() + " JSON ? DEFAULT UNSET USING TIMESTAMP ?";
    }

    // --- values ---

    /** The Cassandra JSON of each of {@code columns} of {@code key}, in order: the values for {@code fromJson(?)}. */
    public List<Object> keyValues(List<String> columns, Map<String, Object> key) {
        List<Object> values = new ArrayList<>(columns.size());
        for (String column : columns) {
            values.add(CqlJson.toCassandraJson("key." + column, keyTypes.get(column), key.get(column)));
        }
        return values;
    }

    /** The Cassandra JSON of {@code value} for {@code fromJson(?)} in {@code column} (key or regular). */
    public String columnValue(String field, String column, Object value) {
        DataType type = keyTypes.containsKey(column) ? keyTypes.get(column) : regular.get(column);
        if (type == null) {
            throw new IllegalArgumentException(
                    field + ": table " + spec.quotedTable() + " has no column '" + column + "'");
        }
        return CqlJson.toCassandraJson(field, type, value);
    }

    public String describe() {
        return spec.quotedTable() + " ("
                + allTypes().entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue().asCql(true, true))
                        .collect(Collectors.joining(", "))
                + ")";
    }

    private List<String> rowSelectors() {
        List<String> selectors = new ArrayList<>();
        for (String key : primaryKey()) {
            selectors.add("toJson(" + Names.quoted(key) + ")");
        }
        for (String column : regular.keySet()) {
            String quoted = Names.quoted(column);
            selectors.add(readNatively(column) ? quoted : "toJson(" + quoted + ")");
            if (readBothWays(column)) {
                selectors.add(quoted);
            }
            selectors.add("MAXWRITETIME(" + quoted + ")");
            selectors.add("TTL(" + quoted + ")");
        }
        return selectors;
    }

    private List<String> liveStateSelectors() {
        List<String> selectors = new ArrayList<>();
        for (String key : primaryKey()) {
            selectors.add("toJson(" + Names.quoted(key) + ")");
        }
        for (String column : regular.keySet()) {
            selectors.add("MAXWRITETIME(" + Names.quoted(column) + ")");
        }
        return selectors;
    }

    private String keySetWhere(int terms) {
        if (terms < 1) {
            throw new IllegalArgumentException("a key set has at least one key, got " + terms);
        }
        List<String> in = keySetInColumns();
        String term = in.size() == 1
                ? "fromJson(?)"
                : "(" + in.stream().map(c -> "fromJson(?)").collect(Collectors.joining(", ")) + ")";
        String list = "(" + String.join(", ", Collections.nCopies(terms, term)) + ")";
        String columns = in.size() == 1 ? Names.quoted(in.get(0)) : "(" + quotedList(in) + ")";
        List<String> equal = keySetEqualColumns();
        return (equal.isEmpty() ? "" : where(equal) + " AND ") + columns + " IN " + list;
    }

    private static String quotedList(List<String> columns) {
        return columns.stream().map(Names::quoted).collect(Collectors.joining(", "));
    }

    private static String where(List<String> columns) {
        return columns.stream().map(c -> Names.quoted(c) + " = fromJson(?)").collect(Collectors.joining(" AND "));
    }
}
