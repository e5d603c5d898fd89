package io.erasure.store.postgres.tree;

import io.erasure.model.check.Names;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A table whose rows belong to a row of the dataset's table (order items of an order) and are deleted,
 * logged and restored with it.
 *
 * @param namespace   schema of the child table
 * @param table       the child table
 * @param references  child column → the dataset key column it references (the foreign key), covering the whole key
 * @param updatedAt   the child's own {@code updated_at} column, if it has one: a child written after the cut-off then
 *                    keeps its parent (and the parent's whole subtree) alive; without one, children are deleted with
 *                    their parent whatever their write time (but, like every row, only at the version the plan found)
 */
public record ChildTable(String namespace, String table, Map<String, String> references, Optional<String> updatedAt) {

    public ChildTable {
        Names.identifier("child.namespace", namespace);
        Names.identifier("child.table", table);
        Objects.requireNonNull(references, "child.references");
        if (references.isEmpty()) {
            throw new IllegalArgumentException("child table " + namespace + "." + table
                    + " needs references: the child column(s) that hold the parent's key, e.g. order_id=id");
        }
        references.forEach((child, parent) -> {
            Names.identifier("child.references child column", child);
            Names.identifier("child.references parent key column", parent);
        });
        references = Collections.unmodifiableMap(new LinkedHashMap<>(references));
        updatedAt = Objects.requireNonNullElse(updatedAt, Optional.<String>empty());
        updatedAt.ifPresent(column -> Names.identifier("child.updated-at", column));
    }

    /** {@code schema.table}: the marker child rows carry in their key ({@link Hierarchy#TABLE_MARKER}). */
    public String qualifiedName() {
        return namespace + "." + table;
    }

    public String quotedTable() {
        return Names.quotedQualified(namespace, table);
    }
}
