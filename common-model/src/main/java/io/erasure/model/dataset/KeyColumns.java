package io.erasure.model.dataset;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A table's primary key: partition key columns (at least one) then clustering columns, in order.
 * For PostgreSQL the primary key columns are the partition columns and clustering is empty.
 * At most {@value #MAX_COLUMNS} columns in all.
 */
public record KeyColumns(List<String> partition, List<String> clustering) {

    /**
     * The most columns a primary key may have (partition and clustering together): PostgreSQL's limit on the
     * columns of an index, and far more than any Cassandra table keys by. Every key (a task's, a recovery's, a
     * deletion record's) has at most this many columns too.
     */
    public static final int MAX_COLUMNS = 32;

    public KeyColumns {
        partition = Require.listOf("keyColumns.partition", partition, MAX_COLUMNS);
        clustering = clustering == null ? List.of() : Require.listOf("keyColumns.clustering", clustering, MAX_COLUMNS);
        Require.atMost(
                "keyColumns (partition and clustering together)", partition.size() + clustering.size(), MAX_COLUMNS);
        if (partition.isEmpty()) {
            throw new IllegalArgumentException("keyColumns.partition must name at least one partition key column");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < partition.size(); i++) {
            requireUnique(seen, "keyColumns.partition[" + i + "]", partition.get(i));
        }
        for (int i = 0; i < clustering.size(); i++) {
            requireUnique(seen, "keyColumns.clustering[" + i + "]", clustering.get(i));
        }
    }

    public static KeyColumns of(List<String> partition, List<String> clustering) {
        return new KeyColumns(partition, clustering);
    }

    public static KeyColumns partitionOnly(String... partition) {
        return new KeyColumns(List.of(partition), List.of());
    }

    /** Partition columns followed by clustering columns. */
    public List<String> primaryKey() {
        List<String> all = new ArrayList<>(partition);
        all.addAll(clustering);
        return Collections.unmodifiableList(all);
    }

    public boolean isPartitionColumn(String column) {
        return partition.contains(column);
    }

    public boolean isPrimaryKeyColumn(String column) {
        return partition.contains(column) || clustering.contains(column);
    }

    /**
     * Checks that {@code key} names exactly the primary key columns. A key missing a clustering
     * column would address a whole range of rows, so it is refused rather than completed.
     */
    public void requireFullKey(String field, Map<String, ?> key) {
        Require.nonNull(field, key);
        if (!key.keySet().equals(Set.copyOf(primaryKey()))) {
            throw new IllegalArgumentException(field + " must have exactly the primary key columns " + primaryKey()
                    + ", got " + Require.truncate(key.keySet().toString()));
        }
    }

    /** The partition key columns of a full key, in partition order. */
    public Map<String, Object> partitionKeyOf(Map<String, ?> key) {
        Map<String, Object> partitionKey = new LinkedHashMap<>();
        for (String column : partition) {
            Object value = key.get(column);
            if (value == null) {
                throw new IllegalArgumentException("key "
                        + Require.truncate(key.keySet().toString()) + " lacks partition key column '" + column + "'");
            }
            partitionKey.put(column, value);
        }
        return Collections.unmodifiableMap(partitionKey);
    }

    private static void requireUnique(Set<String> seen, String field, String column) {
        Names.identifier(field, column);
        if (!seen.add(column)) {
            throw new IllegalArgumentException(field + " repeats column '" + column + "'; list each key column once");
        }
    }
}
