package io.erasure.store.cassandra.read;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import com.datastax.oss.driver.api.core.type.DataType;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.json.CqlJson;
import io.erasure.store.cassandra.json.NonFiniteFloats;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of live rows by full primary key, a key set per statement: keys of one partition in one statement with an
 * {@code IN} over the clustering columns ({@code WHERE p = ? AND (c1, c2) IN ((?, ?), ...)}); without clustering
 * columns, keys of several partitions with an {@code IN} over the (last) partition column; at most
 * {@code maxKeysPerRead} keys per statement, in token order ({@link KeySets}). Statements run with bounded
 * concurrency at the runner's consistency level. Each returned row is tied to the keys that asked for it by its key
 * as stored ({@link KeyIdentities}), so the answers are those of one point read per key: same columns, write times
 * and TTLs, absent keys absent, in the caller's order and with the caller's key. A key with a column type that is
 * not modelled, or whose row the node decides ({@code "now"}, a timestamp without a zone), is read with a point read.
 *
 * <p>A row's write time is the newest {@code MAXWRITETIME} of its regular columns. A row that has
 * only key columns (an {@code INSERT} of the key alone) has no cell to time: it is present with an
 * unknown write time ({@code null}).
 */
public final class LiveReads {

    private static final Logger LOG = LoggerFactory.getLogger(LiveReads.class);

    private final CqlRunner cql;
    private final int maxKeysPerRead;

    public LiveReads(CqlRunner cql, int maxKeysPerRead) {
        if (maxKeysPerRead < 1) {
            throw new IllegalArgumentException("maxKeysPerRead must be at least 1, got " + maxKeysPerRead);
        }
        this.cql = cql;
        this.maxKeysPerRead = maxKeysPerRead;
    }

    /**
     * The most statements one {@link #rows} or {@link #states} call of {@code keyCount} distinct keys sends. Only
     * the count is known, not the partitions: for a single-column partition key without clustering columns, of a
     * type whose every value has node-independent bytes, the keys share statements whatever they are,
     * {@code ceil(keyCount / maxKeysPerRead)} (fewer only if two keys spell one row); otherwise {@code keyCount},
     * since the keys may lie in as many partitions (or prefixes) and a node-dependent key is read on its own.
     */
    public int statements(TableShape shape, int keyCount) {
        if (keyCount < 0) {
            throw new IllegalArgumentException("keyCount must not be negative, got " + keyCount);
        }
        boolean sharedWhateverTheKeys = !shape.clustered()
                && shape.partitionKey().size() == 1
                && StoredValue.nodeIndependent(
                        shape.keyTypes().get(shape.partitionKey().get(0)));
        return sharedWhateverTheKeys ? (keyCount + maxKeysPerRead - 1) / maxKeysPerRead : keyCount;
    }

    /** The full rows of {@code keys} that exist, in key order: every column with write time and TTL. */
    public List<LiveRow> rows(TableShape shape, List<Map<String, Object>> keys) {
        List<Row> found =
                read(shape, true, keys, "reading rows of " + shape.spec().quotedTable());
        List<LiveRow> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (found.get(i) != null) {
                rows.add(liveRow(shape, keys.get(i), found.get(i)));
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
        List<Row> found = read(
                shape, false, keys, "reading the live state of " + shape.spec().quotedTable());
        int partitionColumns = shape.partitionKey().size();
        int keyColumns = shape.primaryKey().size();
        List<StoredKey> states = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            Row row = found.get(i);
            if (row == null) {
                states.add(new StoredKey(LiveState.absent(keys.get(i)), List.of(), List.of()));
                continue;
            }
            List<String> stored = new ArrayList<>(keyColumns);
            for (int column = 0; column < keyColumns; column++) {
                stored.add(row.getString(column));
            }
            Long newest = null;
            for (int column = keyColumns; column < keyColumns + shape.regular().size(); column++) {
                newest = newest(newest, (Long) row.getObject(column));
            }
            states.add(new StoredKey(
                    new LiveState(keys.get(i), true, newest),
                    stored.subList(0, partitionColumns),
                    stored.subList(partitionColumns, keyColumns)));
        }
        return states;
    }

    /** Per key, in order, its row or null: with {@code rowReadCql}'s columns if {@code fullRows}, else the state's. */
    private List<Row> read(TableShape shape, boolean fullRows, List<Map<String, Object>> keys, String doing) {
        List<List<Object>> bound = keys.stream()
                .map(key -> shape.keyValues(shape.primaryKey(), key))
                .toList();
        Optional<KeyIdentities> identities = KeyIdentities.of(shape);
        List<List<Object>> ids = new ArrayList<>(keys.size());
        for (List<Object> values : bound) {
            ids.add(identities.map(known -> known.ofKey(values)).orElse(null));
        }
        List<KeySets.KeySet> sets = KeySets.plan(
                ids,
                shape.keySetEqualColumns().size(),
                identities.map(known -> tokens(shape, known, ids)).orElse(null),
                maxKeysPerRead);
        List<Statement<?>> statements = new ArrayList<>(sets.size());
        for (KeySets.KeySet set : sets) {
            statements.add(
                    set.point()
                            ? pointRead(shape, fullRows, bound.get(set.terms().get(0)))
                            : keySetStatement(shape, fullRows, set, bound, identities.orElseThrow(), ids));
        }
        List<List<Row>> results = cql.readAllPages(doing, statements);

        Row[] found = new Row[keys.size()];
        Map<List<Object>, Row> byIdentity = new HashMap<>();
        Set<List<Object>> misread = new HashSet<>();
        for (int s = 0; s < sets.size(); s++) {
            KeySets.KeySet set = sets.get(s);
            if (set.point()) {
                found[set.terms().get(0)] = first(results.get(s));
                continue;
            }
            Set<List<Object>> asked = new HashSet<>();
            set.terms().forEach(i -> asked.add(ids.get(i)));
            Map<List<Object>, Row> answered = new HashMap<>();
            for (Row row : results.get(s)) {
                // the key columns as stored come last
                int storedKey =
                        row.getColumnDefinitions().size() - shape.primaryKey().size();
                answered.put(identities.orElseThrow().ofRow(row, storedKey), row);
            }
            if (asked.containsAll(answered.keySet())) {
                byIdentity.putAll(answered);
            } else {
                // Cassandra read a key otherwise than StoredValue: never guess which key a row answers, ask each alone
                LOG.warn(
                        "{}: a multi-key read returned a row none of its keys names; reading its {} keys one by one",
                        doing,
                        set.terms().size());
                misread.addAll(asked);
            }
        }
        List<Integer> again = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (misread.contains(ids.get(i))) {
                again.add(i);
            } else if (ids.get(i) != null) {
                found[i] = byIdentity.get(ids.get(i));
            }
        }
        if (!again.isEmpty()) {
            List<List<Row>> rows = cql.readAllPages(
                    doing,
                    again.stream()
                            .map(i -> pointRead(shape, fullRows, bound.get(i)))
                            .toList());
            for (int a = 0; a < again.size(); a++) {
                found[again.get(a)] = first(rows.get(a));
            }
        }
        return Arrays.asList(found);
    }

    private Statement<?> pointRead(TableShape shape, boolean fullRows, List<Object> boundKey) {
        return cql.bind(fullRows ? shape.rowReadCql() : shape.liveStateCql(), boundKey);
    }

    private static Row first(List<Row> rows) {
        return rows.isEmpty() ? null : rows.get(0);
    }

    /**
     * One key set's statement: its IN list padded with its last key to a size few statements share (a repeated
     * term reads nothing more), routed to its first key's replicas.
     */
    private Statement<?> keySetStatement(
            TableShape shape,
            boolean fullRows,
            KeySets.KeySet set,
            List<List<Object>> bound,
            KeyIdentities identities,
            List<List<Object>> ids) {
        int size = KeySets.paddedSize(set.terms().size(), maxKeysPerRead);
        List<String> primaryKey = shape.primaryKey();
        List<Object> values = new ArrayList<>();
        List<Object> first = bound.get(set.terms().get(0));
        for (String column : shape.keySetEqualColumns()) {
            values.add(first.get(primaryKey.indexOf(column)));
        }
        for (int t = 0; t < size; t++) {
            List<Object> key = bound.get(set.terms().get(Math.min(t, set.terms().size() - 1)));
            for (String column : shape.keySetInColumns()) {
                values.add(key.get(primaryKey.indexOf(column)));
            }
        }
        Statement<?> statement =
                cql.bind(fullRows ? shape.rowsOfKeySetCql(size) : shape.liveStatesOfKeySetCql(size), values);
        ByteBuffer[] routing = identities.partitionKey(ids.get(set.terms().get(0)));
        if (routing != null) {
            // the terms bind JSON text, from which the driver cannot route: give it the first key's partition
            statement = statement
                    .setRoutingKeyspace(CqlIdentifier.fromInternal(shape.spec().namespace()))
                    .setRoutingKey(routing);
        }
        return statement;
    }

    /** Each key's token, so that a statement's keys tend to share replicas; null if the driver knows no ring. */
    private List<Token> tokens(TableShape shape, KeyIdentities identities, List<List<Object>> ids) {
        Optional<TokenMap> ring = cql.session().getMetadata().getTokenMap();
        if (ring.isEmpty() || shape.clustered()) {
            return null; // a clustered table's statements each read one partition: their order does not matter
        }
        List<Token> tokens = new ArrayList<>(ids.size());
        for (List<Object> id : ids) {
            ByteBuffer[] partition = id == null ? null : identities.partitionKey(id);
            tokens.add(partition == null ? null : ring.get().newToken(partition));
        }
        return tokens;
    }

    private static LiveRow liveRow(TableShape shape, Map<String, Object> key, Row row) {
        List<ColumnValue> columns = new ArrayList<>();
        int index = 0;
        for (Map.Entry<String, DataType> keyColumn : shape.keyTypes().entrySet()) {
            // key columns have no write time of their own; they are listed so that a key-only row still has columns
            columns.add(ColumnValue.of(
                    keyColumn.getKey(), CqlJson.fromCassandraJson(keyColumn.getValue(), row.getString(index++))));
        }
        Long newest = null;
        for (Map.Entry<String, DataType> column : shape.regular().entrySet()) {
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
