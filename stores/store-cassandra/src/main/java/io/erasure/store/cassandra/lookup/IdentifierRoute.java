package io.erasure.store.cassandra.lookup;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.cassandra.CassandraErrors;
import io.erasure.store.cassandra.CqlRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether the rows of a dataset's identifier column can be found without scanning the table: only when
 * {@code column = ?} is a single-partition read (the column is the table's whole partition key) or an indexed
 * read (a secondary index or a storage-attached index, SAI, whose target is the column itself).
 *
 * <p>Indexes are read from {@code system_schema.indexes} on every call rather than from the driver's schema
 * metadata, which is refreshed asynchronously: an index created a moment ago is seen at once, and one dropped
 * a moment ago is not trusted. An index that cannot answer equality on the whole column ({@code values(col)},
 * {@code keys(col)} of a collection, a SASI or other custom index) does not count.
 */
public final class IdentifierRoute {

    /** Built-in secondary indexes (legacy 2i) and SAI; SASI and other custom classes are not trusted here. */
    private static final Set<String> EQUALITY_KINDS = Set.of("COMPOSITES", "KEYS");

    private static final String SAI_CLASS = "org.apache.cassandra.index.sai.StorageAttachedIndex";
    private static final Set<String> SAI_ALIASES = Set.of("sai", "storageattachedindex", SAI_CLASS.toLowerCase());

    private static final String INDEXES_CQL = "SELECT index_name, kind, options FROM system_schema.indexes"
            + " WHERE keyspace_name = ? AND table_name = ?";

    private final CqlRunner cql;

    public IdentifierRoute(CqlRunner cql) {
        this.cql = cql;
    }

    /**
     * Null when the identifier's rows can be found by a partition read or an index; otherwise why not, with the fix.
     */
    public String refusal(DatasetSpec spec) {
        String column = spec.identifierColumn();
        KeyColumns keys = spec.keyColumns();
        if (keys.partition().equals(List.of(column)) || !indexesOn(spec, column).isEmpty()) {
            return null;
        }
        String table = spec.namespace() + "." + spec.table();
        String where = keys.isPartitionColumn(column)
                ? "only part of the partition key " + keys.partition()
                : keys.isPrimaryKeyColumn(column) ? "a clustering column" : "a regular column";
        return "column " + column + " of " + table + " is " + where + " and has no index that answers "
                + column + " = ?, so finding its rows would scan the table; index it with CREATE INDEX ON "
                + spec.quotedTable() + " (" + CqlIdentifier.fromInternal(column).asCql(true) + ") USING 'sai'";
    }

    /** The names of the indexes of {@code spec}'s table that answer {@code column = ?}. */
    List<String> indexesOn(DatasetSpec spec, String column) {
        List<Row> rows;
        try {
            rows = cql.session()
                    .execute(cql.prepare(INDEXES_CQL)
                            .bind(spec.namespace(), spec.table())
                            // system_schema is local to each node (LocalStrategy): a quorum of other nodes means
                            // nothing
                            .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_ONE)
                            .setIdempotent(true))
                    .all();
        } catch (RuntimeException e) {
            throw CassandraErrors.translate("reading the indexes of " + spec.quotedTable(), e);
        }
        List<String> names = new ArrayList<>();
        for (Row row : rows) {
            Map<String, String> options = row.getMap("options", String.class, String.class);
            if (answersEquality(row.getString("kind"), options) && targets(options.get("target"), column)) {
                names.add(row.getString("index_name"));
            }
        }
        return names;
    }

    static boolean answersEquality(String kind, Map<String, String> options) {
        if (kind != null && EQUALITY_KINDS.contains(kind)) {
            return true;
        }
        String className = options.get("class_name");
        return "CUSTOM".equals(kind) && className != null && SAI_ALIASES.contains(className.toLowerCase());
    }

    /** An index target names the column as CQL does (quoted only when needed), or {@code full(col)} of a frozen one. */
    static boolean targets(String target, String column) {
        if (target == null) {
            return false;
        }
        String cql = CqlIdentifier.fromInternal(column).asCql(true);
        return target.equals(column) || target.equals(cql) || target.equals("full(" + cql + ")");
    }
}
