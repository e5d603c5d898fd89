package io.erasure.store.postgres.schema;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.postgres.tree.ChildTable;
import io.erasure.store.postgres.tree.TreeShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A dataset checked against the live catalog: everything the statements of the adapter are built from.
 * Only {@link DatasetCheck} makes one (tests build some by hand, at {@link SchemaVersion#UNKNOWN}).
 *
 * @param schema the catalog version it was checked at: when the catalog is no longer at it, the shape is stale and
 *               the dataset is checked again before it is used
 */
public record DatasetShape(
        DatasetSpec spec,
        TableSchema table,
        CutoffGuard guard,
        Optional<TreeShape> tree,
        List<Child> children,
        SchemaVersion schema) {

    public DatasetShape {
        children = List.copyOf(children);
        Objects.requireNonNull(schema, "schema");
    }

    /** A shape built without a catalog (SQL text tests). */
    public DatasetShape(
            DatasetSpec spec, TableSchema table, CutoffGuard guard, Optional<TreeShape> tree, List<Child> children) {
        this(spec, table, guard, tree, children, SchemaVersion.UNKNOWN);
    }

    /**
     * True for a tree whose nodes each have their own identifier ({@link TreeShape.NodeIdentifier#OWN}): a subtree
     * delete keeps the nodes of other identifiers.
     */
    public boolean nodesHaveOwnIdentifier() {
        return tree.map(TreeShape::nodesHaveOwnIdentifier).orElse(false);
    }

    /** The foreign keys of the dataset's table onto itself (a tree's parent column, usually). */
    public List<TableSchema.Reference> selfReferences() {
        return table.referencedBy().stream()
                .filter(r -> r.qualifiedName().equals(table.qualifiedName()))
                .toList();
    }

    /** The dataset's table and its child tables: what a delete writes to. */
    public List<TableSchema> tables() {
        List<TableSchema> tables = new ArrayList<>();
        tables.add(table);
        children.forEach(child -> tables.add(child.table()));
        return tables;
    }

    /** True if a statement binds the cut-off (some table is guarded by an updated_at column). */
    public boolean usesCutoff() {
        return guard.usesCutoff() || children.stream().anyMatch(c -> c.guard().usesCutoff());
    }

    public boolean isFlat() {
        return tree.isEmpty() && children.isEmpty();
    }

    public Optional<Child> child(String qualifiedName) {
        return children.stream()
                .filter(c -> c.declared().qualifiedName().equals(qualifiedName))
                .findFirst();
    }

    /** A child table with its catalog description and its own guard (updated_at or none). */
    public record Child(ChildTable declared, TableSchema table, CutoffGuard guard) {}
}
