package io.erasure.store.cassandra.lookup;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.type.DataType;
import io.erasure.model.key.CanonicalKey;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.json.CqlJson;
import io.erasure.store.cassandra.schema.TableShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the full primary keys of the rows whose identifier column holds given values, with one
 * {@code SELECT <key columns> FROM t WHERE <identifier> = fromJson(?)} per identifier: a single-partition read
 * when the identifier is the partition key, an indexed read otherwise (only after {@link IdentifierRoute} found
 * one). Reads run at the adapter's consistency with bounded concurrency and follow the pages until {@code limit}
 * distinct keys are found. Finding a key deletes nothing.
 *
 * <p>Keys come back in the platform's JSON form (as {@code readRows} returns them), distinct, sorted by their
 * canonical form so that the same rows always yield the same list; at most {@code limit} of them. With more rows
 * than that, which {@code limit} are returned is not fixed: a caller that gets {@code limit} keys asks again
 * with a larger limit or refuses.
 */
public final class KeyFinder {

    /** Rows per page: a lookup usually finds a handful of rows per identifier. */
    private static final int PAGE_SIZE = 500;

    private final CqlRunner cql;

    public KeyFinder(CqlRunner cql) {
        this.cql = cql;
    }

    public List<Map<String, Object>> keys(TableShape shape, List<Object> identifiers, int limit) {
        String column = shape.spec().identifierColumn();
        String text = shape.keysByValueCql(column);
        List<Statement<?>> reads = new ArrayList<>(identifiers.size());
        for (int i = 0; i < identifiers.size(); i++) {
            Object identifier = identifiers.get(i);
            if (identifier == null) {
                throw new IllegalArgumentException("identifiers[" + i + "] is null; an identifier always has a value");
            }
            String json = shape.columnValue("identifiers[" + i + "]", column, identifier);
            reads.add(cql.bind(text, List.of(json)).setPageSize(Math.min(PAGE_SIZE, limit)));
        }
        TreeMap<String, Map<String, Object>> found = new TreeMap<>();
        cql.readEach("looking up rows of " + shape.spec().quotedTable() + " by " + column, reads, row -> {
            Map<String, Object> key = key(shape, row);
            synchronized (found) {
                if (found.size() < limit) {
                    found.putIfAbsent(CanonicalKey.render(key), key);
                }
                return found.size() < limit;
            }
        });
        synchronized (found) {
            return List.copyOf(found.values());
        }
    }

    private static Map<String, Object> key(TableShape shape, Row row) {
        Map<String, Object> key = new LinkedHashMap<>();
        int index = 0;
        for (Map.Entry<String, DataType> column : shape.keyTypes().entrySet()) {
            key.put(column.getKey(), CqlJson.fromCassandraJson(column.getValue(), row.getString(index++)));
        }
        return Collections.unmodifiableMap(key);
    }
}
