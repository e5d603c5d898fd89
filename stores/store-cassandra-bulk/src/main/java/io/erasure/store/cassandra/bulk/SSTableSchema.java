package io.erasure.store.cassandra.bulk;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The schema the SSTable writer needs, taken from the live cluster's metadata: the {@code CREATE TYPE}
 * statements of the user types the table uses, then a {@code CREATE TABLE} with its columns, primary key,
 * clustering order and default TTL. Other table options are left out on purpose: they do not change what
 * is written, and the offline writer refuses some that the node accepts.
 */
final class SSTableSchema {

    private SSTableSchema() {}

    /** The schema file's text: statements each ending with {@code ;} and a newline, the table last. */
    static String of(TableMetadata table) {
        Map<CqlIdentifier, UserDefinedType> types = new LinkedHashMap<>();
        table.getColumns().values().forEach(column -> collectTypes(column.getType(), types));
        StringBuilder text = new StringBuilder();
        types.values()
                .forEach(type -> text.append(type.describe(false).trim().replaceAll(";$", ""))
                        .append(";\n"));
        text.append(createTable(table)).append(";\n");
        return text.toString();
    }

    static String createTable(TableMetadata table) {
        List<String> columns = new ArrayList<>();
        for (ColumnMetadata column : table.getColumns().values()) {
            columns.add(column.getName().asCql(true) + " " + column.getType().asCql(true, false)
                    + (column.isStatic() ? " STATIC" : ""));
        }
        String partition = table.getPartitionKey().stream()
                .map(c -> c.getName().asCql(true))
                .collect(Collectors.joining(", "));
        String clustering = table.getClusteringColumns().keySet().stream()
                .map(c -> ", " + c.getName().asCql(true))
                .collect(Collectors.joining());
        StringBuilder text = new StringBuilder("CREATE TABLE ")
                .append(table.getKeyspace().asCql(true))
                .append('.')
                .append(table.getName().asCql(true))
                .append(" (")
                .append(String.join(", ", columns))
                .append(", PRIMARY KEY ((")
                .append(partition)
                .append(')')
                .append(clustering)
                .append("))");
        List<String> options = new ArrayList<>();
        if (!table.getClusteringColumns().isEmpty()) {
            options.add("CLUSTERING ORDER BY ("
                    + table.getClusteringColumns().entrySet().stream()
                            .map(e -> e.getKey().getName().asCql(true)
                                    + (e.getValue() == ClusteringOrder.DESC ? " DESC" : " ASC"))
                            .collect(Collectors.joining(", "))
                    + ")");
        }
        Object defaultTtl = table.getOptions().get(CqlIdentifier.fromInternal("default_time_to_live"));
        if (defaultTtl instanceof Number ttl && ttl.intValue() > 0) {
            // a restored key-only row gets the table's default TTL, as the online restore's insert does
            options.add("default_time_to_live = " + ttl.intValue());
        }
        if (!options.isEmpty()) {
            text.append(" WITH ").append(String.join(" AND ", options));
        }
        return text.toString();
    }

    private static void collectTypes(DataType type, Map<CqlIdentifier, UserDefinedType> types) {
        if (type instanceof UserDefinedType udt) {
            udt.getFieldTypes().forEach(field -> collectTypes(field, types));
            types.putIfAbsent(udt.getName(), udt); // after its own field types: CREATE TYPE order matters
        } else if (type instanceof ListType list) {
            collectTypes(list.getElementType(), types);
        } else if (type instanceof SetType set) {
            collectTypes(set.getElementType(), types);
        } else if (type instanceof MapType map) {
            collectTypes(map.getKeyType(), types);
            collectTypes(map.getValueType(), types);
        } else if (type instanceof TupleType tuple) {
            tuple.getComponentTypes().forEach(component -> collectTypes(component, types));
        }
    }
}
