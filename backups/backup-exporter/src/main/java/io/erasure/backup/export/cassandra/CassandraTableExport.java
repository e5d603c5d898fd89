package io.erasure.backup.export.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import io.erasure.backup.export.snapshot.TableExport;
import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.backup.format.BackupRow;
import io.erasure.backup.format.PartWriter;
import io.erasure.backup.format.TokenSlices;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.check.Names;
import io.erasure.model.dataset.KeyColumns;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Cassandra table read by token range: the ring is cut into {@code slices} equal ranges, one
 * part each, and each range is read with {@code SELECT ... WHERE token(pk) > ? AND token(pk) <= ?}
 * in pages of {@code pageSize} rows, with {@code WRITETIME} of every regular column (write times
 * are not kept for counters and non-frozen collections or UDTs, where CQL has no single one).
 * Read-only: the export issues SELECTs only. The cursor is the next slice's number.
 */
public final class CassandraTableExport implements TableExport {

    private final CqlSession session;
    private final String keyspace;
    private final String table;
    private final int slices;
    private final TokenSlices ring;
    private final int pageSize;
    private final ConsistencyLevel consistency;
    private final BackupSchema schema;
    private final List<String> columns;
    private final List<String> writeTimeColumns;
    private final String query;

    /**
     * @param identifierColumn the column the backup's manifest names as identifier
     * @param slices           token ranges, so parts, per snapshot
     */
    public CassandraTableExport(
            CqlSession session,
            String keyspace,
            String table,
            String identifierColumn,
            int slices,
            int pageSize,
            ConsistencyLevel consistency) {
        this.session = session;
        this.keyspace = Names.identifier("keyspace", keyspace);
        this.table = Names.identifier("table", table);
        if (slices < 1) {
            throw new IllegalArgumentException("slices must be >= 1, got " + slices);
        }
        this.slices = slices;
        this.ring = new TokenSlices(slices);
        this.pageSize = pageSize;
        this.consistency = consistency;
        TableMetadata metadata = session.getMetadata()
                .getKeyspace(keyspace)
                .flatMap(k -> k.getTable(table))
                .orElseThrow(() -> new IllegalArgumentException("table " + keyspace + "." + table + " does not exist"));
        List<ColumnSchema> columnSchemas = new ArrayList<>();
        List<String> writeTimes = new ArrayList<>();
        List<String> partition = metadata.getPartitionKey().stream()
                .map(c -> c.getName().asInternal())
                .toList();
        List<String> clustering = metadata.getClusteringColumns().keySet().stream()
                .map(c -> c.getName().asInternal())
                .toList();
        for (ColumnMetadata column : metadata.getColumns().values()) {
            String name = column.getName().asInternal();
            columnSchemas.add(new ColumnSchema(name, column.getType().asCql(false, true)));
            if (!partition.contains(name) && !clustering.contains(name) && hasSingleWriteTime(column.getType())) {
                writeTimes.add(name);
            }
        }
        this.schema = new BackupSchema(columnSchemas, KeyColumns.of(partition, clustering), identifierColumn);
        this.columns = columnSchemas.stream().map(ColumnSchema::name).toList();
        this.writeTimeColumns = List.copyOf(writeTimes);
        String token = "token(" + partition.stream().map(Names::quoted).collect(Collectors.joining(", ")) + ")";
        this.query = "SELECT " + columns.stream().map(Names::quoted).collect(Collectors.joining(", "))
                + writeTimes.stream()
                        .map(c -> ", WRITETIME(" + Names.quoted(c) + ")")
                        .collect(Collectors.joining())
                + " FROM " + Names.quotedQualified(keyspace, table) + " WHERE " + token + " > ? AND " + token + " <= ?";
    }

    @Override
    public BackupSchema schema() {
        return schema;
    }

    @Override
    public List<String> writeTimeColumns() {
        return writeTimeColumns;
    }

    /** The CQL of one slice (for logs and tests). */
    public String query() {
        return query;
    }

    @Override
    public String writePart(String cursor, PartWriter part, RowRateLimiter limiter)
            throws IOException, InterruptedException {
        int slice = cursor == null ? 0 : Integer.parseInt(cursor);
        ResultSet rows = session.execute(SimpleStatement.newInstance(query, lowerBound(slice), upperBound(slice))
                .setPageSize(pageSize)
                .setConsistencyLevel(consistency)
                .setIdempotent(true));
        int n = columns.size();
        for (Row row : rows) {
            limiter.acquire(1);
            Map<String, Object> values = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                values.put(columns.get(i), plain(row.getObject(i)));
            }
            Map<String, Long> times = new LinkedHashMap<>();
            for (int i = 0; i < writeTimeColumns.size(); i++) {
                if (!row.isNull(n + i)) {
                    times.put(writeTimeColumns.get(i), row.getLong(n + i));
                }
            }
            part.write(new BackupRow(values, times));
        }
        return slice + 1 < slices ? Integer.toString(slice + 1) : null;
    }

    /** Exclusive lower token of a slice; the first starts at the ring's minimum, which no key hashes to. */
    long lowerBound(int slice) {
        return ring.after(slice);
    }

    long upperBound(int slice) {
        return ring.upTo(slice);
    }

    private static boolean hasSingleWriteTime(DataType type) {
        if (type == DataTypes.COUNTER) {
            return false;
        }
        if (type instanceof ListType l) {
            return l.isFrozen();
        }
        if (type instanceof SetType s) {
            return s.isFrozen();
        }
        if (type instanceof MapType m) {
            return m.isFrozen();
        }
        if (type instanceof UserDefinedType u) {
            return u.isFrozen();
        }
        return true;
    }

    /** Driver values the backup format has no JSON form for become text; collections are converted inside. */
    static Object plain(Object value) {
        if (value instanceof UdtValue udt) {
            return udt.getFormattedContents();
        }
        if (value instanceof TupleValue tuple) {
            return tuple.getFormattedContents();
        }
        if (value instanceof CqlDuration duration) {
            return duration.toString();
        }
        if (value instanceof CqlIdentifier id) {
            return id.asInternal();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(plain(k), plain(v)));
            return out;
        }
        if (value instanceof Collection<?> collection) {
            return collection.stream().map(CassandraTableExport::plain).toList();
        }
        return value;
    }

    @Override
    public void close() {
        // the session belongs to the caller
    }
}
