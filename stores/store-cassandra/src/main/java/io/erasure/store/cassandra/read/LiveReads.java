package io.erasure.store.cassandra.read;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.json.CqlJson;
import io.erasure.store.cassandra.json.NonFiniteFloats;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Point reads by full primary key, one statement per key with bounded concurrency (rows of one
 * partition could share an {@code IN}, but separate reads spread over the replicas and keep each
 * answer tied to the key it was asked for, in the caller's own JSON form).
 *
 * <p>A row's write time is the newest {@code MAXWRITETIME} of its regular columns. A row that has
 * only key columns (an {@code INSERT} of the key alone) has no cell to time: it is present with an
 * unknown write time ({@code null}).
 */
public final class LiveReads {

    private final CqlRunner cql;

    public LiveReads(CqlRunner cql) {
        this.cql = cql;
    }

    /** The full rows of {@code keys} that exist, in key order: every column with write time and TTL. */
    public List<LiveRow> rows(TableShape shape, List<Map<String, Object>> keys) {
        List<List<Row>> results = cql.readAll("reading rows of " + shape.spec().quotedTable(),
                statements(shape, shape.rowReadCql(), keys));
        List<LiveRow> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (!results.get(i).isEmpty()) {
                rows.add(liveRow(shape, keys.get(i), results.get(i).get(0)));
            }
        }
        return rows;
    }

    /** Presence and newest write time of each key, in key order. */
    public List<LiveState> states(TableShape shape, List<Map<String, Object>> keys) {
        return storedKeys(shape, keys).stream().map(StoredKey::state).toList();
    }

    /** Presence, newest write time and stored primary key of each key, in key order. */
    public List<StoredKey> storedKeys(TableShape shape, List<Map<String, Object>> keys) {
        List<List<Row>> results = cql.readAll("reading the live state of " + shape.spec().quotedTable(),
                statements(shape, shape.liveStateCql(), keys));
        int partitionColumns = shape.partitionKey().size();
        int keyColumns = shape.primaryKey().size();
        List<StoredKey> states = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            List<Row> found = results.get(i);
            if (found.isEmpty()) {
                states.add(new StoredKey(LiveState.absent(keys.get(i)), List.of(), List.of()));
                continue;
            }
            Row row = found.get(0);
            List<String> stored = new ArrayList<>(keyColumns);
            for (int column = 0; column < keyColumns; column++) {
                stored.add(row.getString(column));
            }
            Long newest = null;
            for (int column = keyColumns; column < keyColumns + shape.regular().size(); column++) {
                newest = newest(newest, (Long) row.getObject(column));
            }
            states.add(new StoredKey(new LiveState(keys.get(i), true, newest), stored.subList(0, partitionColumns),
                    stored.subList(partitionColumns, keyColumns)));
        }
        return states;
    }

    private List<Statement<?>> statements(TableShape shape, String cqlText, List<Map<String, Object>> keys) {
        return keys.stream().<Statement<?>>map(key -> cql.bind(cqlText, shape.keyValues(shape.primaryKey(), key))).toList();
    }

    private static LiveRow liveRow(TableShape shape, Map<String, Object> key, Row row) {
        List<ColumnValue> columns = new ArrayList<>();
        int index = 0;
        for (Map.Entry<String, com.datastax.oss.driver.api.core.type.DataType> keyColumn : shape.keyTypes().entrySet()) {
            // key columns have no write time of their own; they are listed so that a key-only row still has columns
            columns.add(ColumnValue.of(keyColumn.getKey(), CqlJson.fromCassandraJson(keyColumn.getValue(), row.getString(index++))));
        }
        Long newest = null;
        for (Map.Entry<String, com.datastax.oss.driver.api.core.type.DataType> column : shape.regular().entrySet()) {
            String name = column.getKey();
            Object value = shape.readNatively(name)
                    ? NonFiniteFloats.fromNativeFloatingPoint(row.getObject(index))
                    : CqlJson.fromCassandraJson(column.getValue(), row.getString(index));
            if (shape.readBothWays(name)) {
                value = NonFiniteFloats.withNonFiniteFloats(column.getValue(), value, row.getObject(++index));
            }
            Long writeTime = (Long) row.getObject(index + 1);
            Integer ttl = ttl(row.getObject(index + 2));
            index += 3;
            columns.add(value == null ? ColumnValue.of(name, null) : new ColumnValue(name, value, writeTime, ttl));
            newest = newest(newest, writeTime);
        }
        return new LiveRow(key, columns, newest);
    }

    /**
     * The TTL of a column: {@code TTL(col)} is one number for a single cell and a list (one per element)
     * for a non-frozen collection or UDT. A restore gives a column one TTL, so a list becomes its longest
     * TTL, or none if any element has none: a restored element may then outlive its original expiry, but
     * never vanishes before it.
     */
    static Integer ttl(Object ttl) {
        if (ttl instanceof Integer seconds) {
            return seconds;
        }
        if (ttl instanceof List<?> perElement && !perElement.isEmpty()) {
            int longest = 0;
            for (Object element : perElement) {
                if (!(element instanceof Integer seconds)) {
                    return null;
                }
                longest = Math.max(longest, seconds);
            }
            return longest;
        }
        return null;
    }

    private static Long newest(Long current, Long candidate) {
        if (candidate == null) {
            return current;
        }
        return current == null ? candidate : Math.max(current, candidate);
    }
}
