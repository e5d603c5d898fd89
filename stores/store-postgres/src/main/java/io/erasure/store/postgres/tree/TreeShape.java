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
 *
 * <h2>Whose nodes a subtree delete removes</h2>
 * Every node is a row of the dataset's table, so it has a value in the dataset's identifier column. The batch's key
 * was found deletable for its own identifier only; a node of another identifier (another user's reply under a
 * deleted comment) was not. {@link NodeIdentifier} says what a node's identifier means:
 * <ul>
 *   <li>{@link NodeIdentifier#OWN} (the default): each node belongs to the identifier in its own row. A subtree delete
 *       removes only the nodes whose identifier equals the key's row's; a node of another identifier, or with none
 *       (NULL), is kept with everything under it (its own rows of the key's identifier are keys of their own), and
 *       counted in the plan's warnings. If the table has a foreign key onto itself, removing the nodes above a kept
 *       node would cascade into it, change it or fail, so the key is kept whole instead (also counted).</li>
 *   <li>{@link NodeIdentifier#INHERITED}: nodes have no identifier of their own; the identifier column of the nodes
 *       under a key is not an owner (it may be the node's own id, as in a category tree) and the whole subtree goes
 *       with its key. The owner declares it ({@code tree.node-identifier = inherited}).</li>
 * </ul>
 */
public record TreeShape(Optional<String> parentColumn, Optional<String> pathColumn, NodeIdentifier nodeIdentifier) {

    public enum Mode {
        RECURSIVE,
        MATERIALIZED_PATH
    }

    /** What the identifier column of a node under a key says ({@code tree.node-identifier}). */
    public enum NodeIdentifier {
        /** The node belongs to the identifier in its own row: only nodes of the key's identifier go. */
        OWN,
        /** Nodes have no identifier of their own: they belong to their subtree's key and go with it. */
        INHERITED;

        /**
         * The setting's value ({@code own}, {@code inherited}); anything else fails naming the setting and the values.
         */
        public static NodeIdentifier fromSetting(String value) {
            if (value == null) {
                return OWN;
            }
            for (NodeIdentifier candidate : values()) {
                if (candidate.name().equalsIgnoreCase(value.trim())) {
                    return candidate;
                }
            }
            throw new IllegalArgumentException(
                    "tree.node-identifier must be 'own' (each node belongs to the identifier in"
                            + " its own row; the default) or 'inherited' (nodes have no identifier of their own and go"
                            + " with their key), got '" + value + "'");
        }
    }

    /** A tree whose nodes each have their own identifier ({@link NodeIdentifier#OWN}). */
    public TreeShape(Optional<String> parentColumn, Optional<String> pathColumn) {
        this(parentColumn, pathColumn, NodeIdentifier.OWN);
    }

    public TreeShape {
        parentColumn = parentColumn == null ? Optional.empty() : parentColumn;
        pathColumn = pathColumn == null ? Optional.empty() : pathColumn;
        if (parentColumn.isEmpty() && pathColumn.isEmpty()) {
            throw new IllegalArgumentException(
                    "a tree needs a parent column (recursive mode) or a path column" + " (materialized-path mode)");
        }
        parentColumn.ifPresent(column -> Names.identifier("tree.parent-column", column));
        pathColumn.ifPresent(column -> Names.identifier("tree.path-column", column));
        if (nodeIdentifier == null) {
            throw new IllegalArgumentException(
                    "tree.node-identifier is required: 'own' (each node belongs to the identifier"
                            + " in its own row) or 'inherited' (nodes go with their key)");
        }
    }

    /** This tree with {@code nodes} saying whose its nodes are. */
    public TreeShape withNodeIdentifier(NodeIdentifier nodes) {
        return new TreeShape(parentColumn, pathColumn, nodes);
    }

    /** True if a subtree delete must compare each node's identifier with its key's. */
    public boolean nodesHaveOwnIdentifier() {
        return nodeIdentifier == NodeIdentifier.OWN;
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
