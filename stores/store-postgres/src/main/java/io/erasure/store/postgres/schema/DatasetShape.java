package io.erasure.store.postgres.schema;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.postgres.tree.ChildTable;
import io.erasure.store.postgres.tree.TreeShape;
import java.util.List;
import java.util.Optional;

/**
 * A dataset checked against the live catalog: everything the statements of the adapter are built from.
 * Only {@link DatasetCheck} makes one.
 */
public record DatasetShape(DatasetSpec spec, TableSchema table, CutoffGuard guard, Optional<TreeShape> tree,
                           List<Child> children) {

    public DatasetShape {
        children = List.copyOf(children);
    }

    /** True if a statement binds the cut-off (some table is guarded by an updated_at column). */
    public boolean usesCutoff() {
        return guard.usesCutoff() || children.stream().anyMatch(c -> c.guard().usesCutoff());
    }

    public boolean isFlat() {
        return tree.isEmpty() && children.isEmpty();
    }

    public Optional<Child> child(String qualifiedName) {
        return children.stream().filter(c -> c.declared().qualifiedName().equals(qualifiedName)).findFirst();
    }

    /** A child table with its catalog description and its own guard (updated_at or none). */
    public record Child(ChildTable declared, TableSchema table, CutoffGuard guard) {
    }
}
