package io.erasure.store.postgres.tree;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What else goes when a row of a dataset goes: its subtree (when the table is a {@link TreeShape tree})
 * and, for the row and every subtree row, its rows in {@link ChildTable child tables}.
 *
 * <p>Everything a delete removes is first returned by {@code readRows}, so it reaches the write-ahead log:
 * subtree rows carry the dataset's own key columns; child rows carry the child's primary key plus
 * {@link #TABLE_MARKER} = {@code schema.table}, which keeps their record ids apart from the parent's and tells
 * the restore where they go.
 */
public record Hierarchy(Optional<TreeShape> tree, List<ChildTable> children) {

    /** Key column naming the child table of a child row, in rows read and in deletion records. */
    public static final String TABLE_MARKER = "_erasure_table";

    public static final Hierarchy NONE = new Hierarchy(Optional.empty(), List.of());

    public Hierarchy {
        tree = tree == null ? Optional.empty() : tree;
        children = children == null ? List.of() : List.copyOf(children);
        Set<String> names = new HashSet<>();
        for (ChildTable child : children) {
            if (!names.add(child.qualifiedName())) {
                throw new IllegalArgumentException("child table " + child.qualifiedName() + " is declared twice");
            }
        }
    }

    public boolean isFlat() {
        return tree.isEmpty() && children.isEmpty();
    }

    public Optional<ChildTable> child(String qualifiedName) {
        return children.stream()
                .filter(c -> c.qualifiedName().equals(qualifiedName))
                .findFirst();
    }
}
