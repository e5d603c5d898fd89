package io.erasure.store.cassandra.schema;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.CustomType;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.cassandra.CassandraErrors;
import io.erasure.store.spi.StoreException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks dataset specs against the live schema (the driver's schema metadata) and caches the
 * accepted {@link TableShape} per spec. A spec that was never checked is checked on first use, so
 * a freshly started service can serve tasks whose spec another replica registered.
 *
 * <p>The cache is tied to the driver's table metadata object, which the driver replaces whenever the
 * table's schema changes: a column added after registration is therefore read (and logged) too,
 * instead of being deleted without a copy.
 */
public final class TableCatalog {

    private final CqlSession session;
    private final String connectionRef;
    private final Map<DatasetSpec, Checked> shapes = new ConcurrentHashMap<>();

    private record Checked(TableMetadata table, TableShape shape) {}

    public TableCatalog(CqlSession session, String connectionRef) {
        this.session = session;
        this.connectionRef = connectionRef;
    }

    /** The accepted shape of {@code spec}'s table; checks the spec first if needed. */
    public TableShape shape(DatasetSpec spec) {
        Checked checked = shapes.get(spec);
        if (checked != null && lookup(session.getMetadata(), spec).orElse(null) == checked.table()) {
            return checked.shape();
        }
        return check(spec);
    }

    /** Checks {@code spec} against the live table now and caches the result. */
    public TableShape check(DatasetSpec spec) {
        TableMetadata table = table(spec);
        TableShape shape = inspect(spec, table);
        shapes.put(spec, new Checked(table, shape));
        return shape;
    }

    private TableMetadata table(DatasetSpec spec) {
        if (spec.storeKind() != StoreKind.CASSANDRA) {
            throw refuse(
                    spec,
                    "is a " + spec.storeKind() + " dataset; register it with storeKind CASSANDRA or open it"
                            + " with the " + spec.storeKind() + " adapter");
        }
        Optional<TableMetadata> table = lookup(session.getMetadata(), spec);
        if (table.isEmpty()) {
            // the driver's schema view is refreshed asynchronously: a table created a moment ago may not be in it yet
            try {
                table = lookup(session.refreshSchema(), spec);
            } catch (RuntimeException e) {
                throw CassandraErrors.translate("reading the schema of " + spec.quotedTable(), e);
            }
        }
        if (table.isPresent()) {
            return table.get();
        }
        boolean keyspaceExists = session.getMetadata()
                .getKeyspace(CqlIdentifier.fromInternal(spec.namespace()))
                .isPresent();
        String what = keyspaceExists
                ? "table " + spec.namespace() + "." + spec.table() + " does not exist in keyspace " + spec.namespace()
                : "keyspace " + spec.namespace() + " (of table " + spec.namespace() + "." + spec.table()
                        + ") does not exist";
        throw refuse(
                spec,
                "points at a missing table: " + what + " on connection '" + connectionRef
                        + "'; create the table, or fix namespace/table in the dataset spec");
    }

    private static Optional<TableMetadata> lookup(Metadata metadata, DatasetSpec spec) {
        return metadata.getKeyspace(CqlIdentifier.fromInternal(spec.namespace()))
                .flatMap((KeyspaceMetadata keyspace) -> keyspace.getTable(CqlIdentifier.fromInternal(spec.table())));
    }

    private TableShape inspect(DatasetSpec spec, TableMetadata table) {
        String name = spec.namespace() + "." + spec.table();
        List<String> partition = table.getPartitionKey().stream()
                .map(c -> c.getName().asInternal())
                .toList();
        List<String> clustering = table.getClusteringColumns().keySet().stream()
                .map(c -> c.getName().asInternal())
                .toList();
        if (!partition.equals(spec.keyColumns().partition())
                || !clustering.equals(spec.keyColumns().clustering())) {
            throw refuse(
                    spec,
                    "has key columns partition=" + spec.keyColumns().partition() + " clustering="
                            + spec.keyColumns().clustering() + " but table " + name + " has partition key " + partition
                            + " and clustering columns " + clustering + "; register the table's primary key, in order");
        }
        if (table.getColumn(CqlIdentifier.fromInternal(spec.identifierColumn())).isEmpty()) {
            throw refuse(
                    spec,
                    "names identifierColumn '" + spec.identifierColumn() + "' but table " + name
                            + " has no such column; name the column that holds the identifier");
        }
        if (spec.conditionalColumn() instanceof ConditionalColumn.Named named) {
            throw refuse(
                    spec,
                    "names conditionalColumn '" + named.name() + "', but Cassandra deletes are conditioned on"
                            + " each cell's write time (USING TIMESTAMP at the cut-off), not on a column;"
                            + " set conditionalColumn to none");
        }

        Map<String, DataType> keyTypes = new LinkedHashMap<>();
        Map<String, DataType> regular = new LinkedHashMap<>();
        for (ColumnMetadata column : table.getColumns().values()) {
            String columnName = column.getName().asInternal();
            DataType type = column.getType();
            if (type.getProtocolCode() == ProtocolConstants.DataType.COUNTER) {
                throw refuse(
                        spec,
                        "points at counter table " + name + " (column '" + columnName + "' is a counter):"
                                + " counters cannot be deleted at a cut-off timestamp nor restored to their value,"
                                + " so a counter table cannot be served safely; keep deletable data in a regular"
                                + " table");
            }
            unsupportedType(type).ifPresent(why -> {
                throw refuse(
                        spec,
                        "points at table " + name + " whose column '" + columnName + "' has type "
                                + type.asCql(true, true) + ", which " + why);
            });
            if (column.isStatic()) {
                throw refuse(
                        spec,
                        "points at table " + name + " with static column '" + columnName + "': a static"
                                + " column belongs to the whole partition, so a row delete leaves it and a partition"
                                + " delete would remove data no deletion record holds;"
                                + " move it into a regular column or a separate table");
            }
            if (spec.keyColumns().isPrimaryKeyColumn(columnName)) {
                keyTypes.put(columnName, type);
            } else {
                regular.put(columnName, type);
            }
        }
        Map<String, DataType> orderedKeys = new LinkedHashMap<>();
        spec.keyColumns().primaryKey().forEach(key -> orderedKeys.put(key, keyTypes.get(key)));
        return new TableShape(spec, orderedKeys, regular);
    }

    /** Why a column type cannot be read and restored faithfully as JSON, if it cannot. */
    private static Optional<String> unsupportedType(DataType type) {
        if (type instanceof VectorType vector) {
            return unsupportedType(vector.getElementType());
        }
        if (type instanceof CustomType custom) {
            return Optional.of("is a custom type (" + custom.getClassName() + ") that has no JSON form the adapter can"
                    + " restore faithfully");
        }
        if (type instanceof ListType list) {
            return unsupportedType(list.getElementType());
        }
        if (type instanceof SetType set) {
            return unsupportedType(set.getElementType());
        }
        if (type instanceof MapType map) {
            return unsupportedType(map.getKeyType()).or(() -> unsupportedType(map.getValueType()));
        }
        if (type instanceof TupleType tuple) {
            return tuple.getComponentTypes().stream()
                    .map(TableCatalog::unsupportedType)
                    .flatMap(Optional::stream)
                    .findFirst();
        }
        if (type instanceof UserDefinedType udt) {
            return udt.getFieldTypes().stream()
                    .map(TableCatalog::unsupportedType)
                    .flatMap(Optional::stream)
                    .findFirst();
        }
        return Optional.empty();
    }

    private StoreException.Fatal refuse(DatasetSpec spec, String reason) {
        return new StoreException.Fatal("dataset '" + spec.name() + "' " + reason);
    }
}
