package io.erasure.store.postgres.lookup;

import io.erasure.store.postgres.json.JsonValues;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.schema.TableSchema;
import io.erasure.store.postgres.sql.LookupSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the keys of rows by a dataset's identifier column, only where an index makes that a bounded read.
 *
 * <h2>When a lookup is allowed</h2>
 * Some index of the table must have the identifier column as its <em>first</em> column (the primary key counts when
 * it starts with it), and be usable for any value: valid and ready ({@code pg_index.indisvalid AND indisready}, so
 * not a {@code CREATE INDEX CONCURRENTLY} that failed or is still building), not partial (a {@code WHERE} clause
 * leaves rows out of it), a btree or hash index (both answer {@code =}; a GIN, GiST or BRIN index on the column
 * does not make an equality lookup cheap), and of the column's own collation (the planner uses no other for
 * {@code =}). Otherwise {@link #refusal} names the table, the column and the fix, and
 * nothing is read.
 *
 * <h2>Cache</h2>
 * Only a usable index is remembered, per table and column, for {@link #CACHE_FOR}: the catalog is not asked again for
 * every lookup task. A refusal is never cached, so an index created to fix it counts at once. If the index is dropped
 * within the cache period, lookups run unindexed until it expires: slower, never wrong (a lookup deletes nothing).
 */
public final class IdentifierIndex {

    /** How long a usable index is trusted without asking the catalog again. */
    public static final Duration CACHE_FOR = Duration.ofMinutes(5);

    private static final Set<String> EQUALITY_METHODS = Set.of("btree", "hash");

    private static final String INDEXES_STARTING_WITH = """
            SELECT ic.relname, i.indisvalid AND i.indisready AS ready, i.indpred IS NOT NULL AS partial, am.amname,
                   i.indcollation[0] = a.attcollation AS same_collation
            FROM pg_index i
            JOIN pg_class c ON c.oid = i.indrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_class ic ON ic.oid = i.indexrelid
            JOIN pg_am am ON am.oid = ic.relam
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE n.nspname = ? AND c.relname = ? AND a.attname = ?
            ORDER BY ic.relname""";

    private final Clock clock;
    private final Map<String, Instant> usableUntil = new ConcurrentHashMap<>();

    public IdentifierIndex(Clock clock) {
        this.clock = clock;
    }

    /** Null when a usable index starts with the dataset's identifier column; otherwise why not, with the fix. */
    public String refusal(Connection connection, DatasetShape shape) throws SQLException {
        TableSchema table = shape.table();
        String column = shape.spec().identifierColumn();
        String cacheKey = table.qualifiedName() + "." + column;
        Instant until = usableUntil.get(cacheKey);
        Instant now = clock.instant();
        if (until != null && now.isBefore(until)) {
            return null;
        }
        List<String> unusable = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(INDEXES_STARTING_WITH)) {
            statement.setString(1, table.namespace());
            statement.setString(2, table.table());
            statement.setString(3, column);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    String why = !rs.getBoolean("ready")
                            ? "not valid or not ready"
                            : rs.getBoolean("partial")
                                    ? "partial"
                                    : !EQUALITY_METHODS.contains(rs.getString("amname"))
                                            ? rs.getString("amname") + ", not btree or hash"
                                            : !rs.getBoolean("same_collation")
                                                    ? "another collation than the column's"
                                                    : null;
                    if (why == null) {
                        usableUntil.put(cacheKey, now.plus(CACHE_FOR));
                        return null;
                    }
                    unusable.add(rs.getString("relname") + ": " + why);
                }
            }
        }
        usableUntil.remove(cacheKey);
        return "no usable index of table " + table.qualifiedName() + " starts with its identifier column " + column
                + (unusable.isEmpty() ? "" : " " + unusable)
                + ", so its rows cannot be found without scanning the table: CREATE INDEX CONCURRENTLY ON "
                + table.qualifiedName() + " (" + column + ")";
    }

    /**
     * The keys of the rows whose identifier column equals one of {@code identifiers}, in key order, at most
     * {@code limit}. The caller has checked {@link #refusal}; integers come back as {@link Long}.
     */
    public List<Map<String, Object>> keys(
            Connection connection, DatasetShape shape, List<Object> identifiers, int limit) throws SQLException {
        TableSchema table = shape.table();
        String column = shape.spec().identifierColumn();
        List<Map<String, Object>> documents = new ArrayList<>(identifiers.size());
        identifiers.forEach(value -> documents.add(Map.of(column, value)));
        List<Map<String, Object>> keys = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(LookupSql.keysByIdentifier(shape))) {
            statement.setString(1, JsonValues.documents(table, documents));
            statement.setInt(2, limit);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> row = JsonValues.row(table, rs.getString("doc"));
                    Map<String, Object> key = new LinkedHashMap<>();
                    for (String keyColumn : table.primaryKey()) {
                        Object value = row.get(keyColumn);
                        key.put(keyColumn, value instanceof Integer i ? Long.valueOf(i) : value);
                    }
                    keys.add(key);
                }
            }
        }
        return keys;
    }
}
