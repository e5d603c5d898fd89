package io.erasure.store.postgres.schema;

import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Optional;

/**
 * Which columns anonymisation may clear (set to NULL) in a dataset's table. The batch has already refused key
 * columns and bad names ({@code DeletionTask.requireClearable}); here the live schema decides:
 * <ul>
 *   <li>the column exists and is nullable: a NOT NULL column would make every UPDATE fail (checked last, so that the
 *       fix named is never to drop NOT NULL from a column that must not be cleared anyway);</li>
 *   <li>it is not generated (PostgreSQL computes it; it cannot be set);</li>
 *   <li>it is not the conditional column: a NULL updated_at or version would keep the row from every later delete
 *       and from the restore of this very anonymisation;</li>
 *   <li>it is not a tree's parent or path column: clearing one would cut the row's subtree loose;</li>
 *   <li>the dataset has no child tables: their rows belong to the row, and a clear of the row's own columns would
 *       leave them untouched while reporting the row anonymised.</li>
 * </ul>
 */
public final class ClearableColumns {

    private ClearableColumns() {}

    /**
     * Empty when every column can be cleared; otherwise the first refusal, naming the table, the column and the fix.
     */
    public static Optional<String> refusal(DatasetShape shape, List<String> columns) {
        TableSchema table = shape.table();
        String where = "dataset '" + shape.spec().name() + "', table " + table.qualifiedName();
        if (!shape.children().isEmpty()) {
            return Optional.of(
                    where + " has child tables, whose rows anonymising the row's own columns would leave as they"
                            + " are; delete the rows instead of anonymising them");
        }
        for (String name : columns) {
            Optional<ColumnInfo> column = table.column(name);
            if (column.isEmpty()) {
                return Optional.of(where + " has no column '" + name + "' to clear; its columns are "
                        + table.columns().stream().map(ColumnInfo::name).toList()
                        + ": fix clearColumns or add the column");
            }
            if (column.get().generated()) {
                return Optional.of(
                        where + ": column '" + name + "' is generated, PostgreSQL computes it and it cannot be"
                                + " cleared: clear the columns it is computed from instead");
            }
            if (name.equals(shape.guard().column())) {
                return Optional.of(
                        where + ": column '" + name + "' is the conditional column; clearing it would keep the row"
                                + " from every later delete: remove it from clearColumns");
            }
            boolean treeColumn = shape.tree()
                    .map(tree -> tree.parentColumn().map(name::equals).orElse(false)
                            || tree.pathColumn().map(name::equals).orElse(false))
                    .orElse(false);
            if (treeColumn) {
                return Optional.of(
                        where + ": column '" + name + "' places the row in its tree; clearing it would cut its"
                                + " subtree loose: remove it from clearColumns");
            }
            if (column.get().notNull()) {
                return Optional.of(where + ": column '" + name
                        + "' is NOT NULL, so it cannot be cleared: run ALTER TABLE " + table.qualifiedName()
                        + " ALTER COLUMN " + name + " DROP NOT NULL, or remove it from clearColumns");
            }
        }
        return Optional.empty();
    }

    /** @throws StoreException.Fatal with {@link #refusal} when a column cannot be cleared */
    public static void require(DatasetShape shape, List<String> columns) {
        refusal(shape, columns).ifPresent(reason -> {
            throw new StoreException.Fatal(reason);
        });
    }
}
