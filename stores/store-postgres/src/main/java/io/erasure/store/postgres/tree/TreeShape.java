package io.erasure.store.postgres.tree;

import io.erasure.model.check.Names;
import java.util.Optional;

/**
 * The dataset's table is a tree: each row may have a parent row in the same table, and deleting a row
 * deletes its whole subtree.
 *
 * <ul>
 *   <li>{@link Mode#RECURSIVE}: {@code parentColumn} references the (single-column) primary key; the
 *       subtree is found with a recursive CTE, which PostgreSQL evaluates iteratively (a work table per
 *       level), so hundreds of levels need no stack and hit no recursion limit.</li>
 *   <li>{@link Mode#MATERIALIZED_PATH}: {@code pathColumn} holds the node's path from the root, each
 *       segment closed by {@code /} (e.g. {@code /1/5/9/} for node 9); the subtree is every row whose path
 *       starts with the node's path: one non-recursive join, whatever the depth. A node whose path is not of
 *       that form ({@code /.../}) is never deleted, so an empty path cannot match the whole table.</li>
 * </ul>
 */
public record TreeShape(Optional<String> parentColumn, Optional<String> pathColumn) {

    public enum Mode { RECURSIVE, MATERIALIZED_PATH }

    public TreeShape {
        parentColumn = parentColumn == null ? Optional.empty() : parentColumn;
        pathColumn = pathColumn == null ? Optional.empty() : pathColumn;
        if (parentColumn.isEmpty() && pathColumn.isEmpty()) {
            throw new IllegalArgumentException("a tree needs a parent column (recursive mode) or a path column"
                    + " (materialized-path mode)");
        }
        parentColumn.ifPresent(column -> Names.identifier("tree.parent-column", column));
        pathColumn.ifPresent(column -> Names.identifier("tree.path-column", column));
    }

    public static TreeShape recursive(String parentColumn) {
        return new TreeShape(Optional.of(parentColumn), Optional.empty());
    }

    public static TreeShape materializedPath(String pathColumn) {
        return new TreeShape(Optional.empty(), Optional.of(pathColumn));
    }

    /** A path column wins: it needs no recursion. */
    public Mode mode() {
        return pathColumn.isPresent() ? Mode.MATERIALIZED_PATH : Mode.RECURSIVE;
    }
}
