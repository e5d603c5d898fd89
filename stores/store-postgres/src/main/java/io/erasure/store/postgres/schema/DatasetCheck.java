package io.erasure.store.postgres.schema;

import io.erasure.model.check.Names;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.postgres.tree.ChildTable;
import io.erasure.store.postgres.tree.Hierarchy;
import io.erasure.store.postgres.tree.TreeShape;
import io.erasure.store.spi.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a dataset spec (and its declared hierarchy) against the live catalog. Refusals are
 * {@link StoreException.Fatal} naming the table, the column and the fix.
 *
 * <p>Besides the columns, a dataset is refused if a table that is not declared as its child (or, for a
 * tree, the table itself) has a foreign key to it: with {@code ON DELETE CASCADE} deleting a row would
 * silently delete rows that were never logged, and with {@code NO ACTION} every delete would fail.
 *
 * <p>Call it inside one REPEATABLE READ transaction: the shape's {@link SchemaVersion} is then the version of exactly
 * the catalog the check read.
 */
public final class DatasetCheck {

    private DatasetCheck() {}

    public static DatasetShape resolve(Connection connection, DatasetSpec spec, Hierarchy hierarchy)
            throws SQLException {
        String dataset = "dataset '" + spec.name() + "'";
        if (spec.storeKind() != StoreKind.POSTGRES) {
            throw new StoreException.Fatal(
                    dataset + " is a " + spec.storeKind() + " dataset; the POSTGRES adapter cannot serve it");
        }
        TableSchema table = Catalog.read(connection, spec.namespace(), spec.table())
                .orElseThrow(() -> new StoreException.Fatal(dataset + ": table " + spec.namespace() + "." + spec.table()
                        + " does not exist in this database (no ordinary or"
                        + " partitioned table of that name); create it, or fix namespace/table in the registration"));
        String where = dataset + ", table " + table.qualifiedName();
        requireSafeColumnNames(where, table);

        Set<String> declaredKey = Set.copyOf(spec.keyColumns().primaryKey());
        if (table.primaryKey().isEmpty()) {
            throw new StoreException.Fatal(
                    where + " has no primary key; rows can only be deleted and restored by primary key:"
                            + " add one (keyColumns " + spec.keyColumns().primaryKey() + ")");
        }
        if (!declaredKey.equals(Set.copyOf(table.primaryKey()))) {
            throw new StoreException.Fatal(where + ": keyColumns "
                    + spec.keyColumns().primaryKey()
                    + " are not the table's primary key " + table.primaryKey() + "; register keyColumns.partition = "
                    + table.primaryKey());
        }
        requireColumn(where, table, spec.identifierColumn(), "identifierColumn");
        CutoffGuard guard = guardOf(where, table, spec.conditionalColumn());
        Optional<TreeShape> tree = hierarchy.tree();
        if (guard.kind() == CutoffGuard.Kind.VERSION && !hierarchy.isFlat()) {
            throw new StoreException.Fatal(
                    where + ": a VERSION conditional column cannot guard a subtree or child rows (their"
                            + " versions are not read at plan time); use an updated_at (TIMESTAMP) column for a dataset"
                            + " with a hierarchy");
        }
        tree.ifPresent(shape -> checkTree(where, table, shape));

        List<DatasetShape.Child> children = new ArrayList<>();
        for (ChildTable declared : hierarchy.children()) {
            children.add(child(connection, where, table, declared));
        }
        checkReferences(where, spec.name(), table, tree.isPresent(), children);
        for (DatasetShape.Child child : children) {
            checkReferences(
                    where + ", child table " + child.table().qualifiedName(),
                    spec.name(),
                    child.table(),
                    false,
                    List.of());
        }
        List<TableSchema> tables = new ArrayList<>();
        tables.add(table);
        children.forEach(child -> tables.add(child.table()));
        // read in the same snapshot as the tables (the caller's transaction), so a change made meanwhile shows as stale
        return new DatasetShape(spec, table, guard, tree, children, SchemaVersion.read(connection, tables));
    }

    private static CutoffGuard guardOf(String where, TableSchema table, ConditionalColumn conditional) {
        if (conditional instanceof ConditionalColumn.Named named) {
            ColumnInfo column = requireColumn(where, table, named.name(), "conditionalColumn");
            if (table.primaryKey().contains(column.name())) {
                throw new StoreException.Fatal(where + ": conditionalColumn '" + column.name()
                        + "' is part of the primary key;" + " name the updated_at or version column");
            }
            if (named.kind() == ConditionalColumn.Kind.TIMESTAMP) {
                if (!column.isTimestamp()) {
                    throw new StoreException.Fatal(where + ": conditionalColumn '" + column.name() + "' is of type "
                            + column.baseType() + "; a TIMESTAMP conditional column must be timestamptz or timestamp");
                }
                return CutoffGuard.updatedAt(column);
            }
            if (!column.isInteger()) {
                throw new StoreException.Fatal(where + ": conditionalColumn '" + column.name() + "' is of type "
                        + column.baseType() + "; a VERSION conditional column must be smallint, integer or bigint");
            }
            return CutoffGuard.version(column);
        }
        return CutoffGuard.NONE;
    }

    private static void checkTree(String where, TableSchema table, TreeShape tree) {
        if (tree.mode() == TreeShape.Mode.RECURSIVE) {
            if (table.primaryKey().size() != 1) {
                throw new StoreException.Fatal(where
                        + ": a recursive tree needs a one-column primary key (the parent column"
                        + " references it), the table has " + table.primaryKey() + "; use a path column instead");
            }
            ColumnInfo parent = requireColumn(where, table, tree.parentColumn().orElseThrow(), "tree.parent-column");
            ColumnInfo key = table.column(table.primaryKey().get(0)).orElseThrow();
            if (!parent.baseType().equals(key.baseType())) {
                throw new StoreException.Fatal(where + ": tree.parent-column '" + parent.name() + "' is of type "
                        + parent.baseType() + " but the primary key '" + key.name() + "' is " + key.baseType());
            }
        } else {
            ColumnInfo path = requireColumn(where, table, tree.pathColumn().orElseThrow(), "tree.path-column");
            if (!path.isText()) {
                throw new StoreException.Fatal(where + ": tree.path-column '" + path.name() + "' is of type "
                        + path.baseType() + "; a materialized path is text such as '/1/5/9/'");
            }
        }
    }

    private static DatasetShape.Child child(
            Connection connection, String where, TableSchema parent, ChildTable declared) throws SQLException {
        TableSchema table = Catalog.read(connection, declared.namespace(), declared.table())
                .orElseThrow(() -> new StoreException.Fatal(where + ": child table " + declared.qualifiedName()
                        + " does not exist; create it or" + " fix its hierarchy.<dataset>.child.<name>.table setting"));
        String childWhere = where + ", child table " + table.qualifiedName();
        requireSafeColumnNames(childWhere, table);
        if (table.primaryKey().isEmpty()) {
            throw new StoreException.Fatal(
                    childWhere + " has no primary key; child rows are logged and restored by primary key");
        }
        if (!Set.copyOf(declared.references().values()).equals(Set.copyOf(parent.primaryKey()))
                || declared.references().size() != parent.primaryKey().size()) {
            throw new StoreException.Fatal(
                    childWhere + ": references " + declared.references() + " must map one child column"
                            + " to each primary key column " + parent.primaryKey() + " of " + parent.qualifiedName());
        }
        for (String column : declared.references().keySet()) {
            requireColumn(childWhere, table, column, "references");
        }
        CutoffGuard guard = CutoffGuard.NONE;
        if (declared.updatedAt().isPresent()) {
            ColumnInfo updatedAt =
                    requireColumn(childWhere, table, declared.updatedAt().get(), "updated-at");
            if (!updatedAt.isTimestamp()) {
                throw new StoreException.Fatal(childWhere + ": updated-at column '" + updatedAt.name() + "' is of type "
                        + updatedAt.baseType() + "; it must be timestamptz or timestamp");
            }
            guard = CutoffGuard.updatedAt(updatedAt);
        }
        return new DatasetShape.Child(declared, table, guard);
    }

    private static void checkReferences(
            String where, String dataset, TableSchema table, boolean selfAllowed, List<DatasetShape.Child> children) {
        Set<String> allowed = new HashSet<>();
        children.forEach(c -> allowed.add(c.table().qualifiedName()));
        if (selfAllowed) {
            allowed.add(table.qualifiedName());
        }
        for (TableSchema.Reference reference : table.referencedBy()) {
            if (!allowed.contains(reference.qualifiedName())) {
                throw new StoreException.Fatal(
                        where + " is referenced by " + reference.qualifiedName() + " (foreign key "
                                + reference.constraint() + ", " + reference.onDeleteText()
                                + "), which is not part of the dataset:"
                                + " deleting a row would "
                                + (reference.onDelete() == 'c'
                                        ? "also delete rows that were never logged"
                                        : "fail or change rows that were never logged")
                                + ". Declare it with hierarchy." + dataset + ".child.<name>.*"
                                + (reference.qualifiedName().equals(table.qualifiedName())
                                        ? " or hierarchy." + dataset + ".tree.parent-column"
                                        : "")
                                + ", or register it as a dataset of its own and drop the foreign key");
            }
        }
    }

    private static ColumnInfo requireColumn(String where, TableSchema table, String name, String field) {
        return table.column(name)
                .orElseThrow(() -> new StoreException.Fatal(where + " has no column '" + name + "' (" + field
                        + "); its columns are "
                        + table.columns().stream().map(ColumnInfo::name).toList()
                        + ": fix " + field + " in the registration or add the column"));
    }

    private static void requireSafeColumnNames(String where, TableSchema table) {
        for (ColumnInfo column : table.columns()) {
            if (!Names.isIdentifier(column.name())) {
                throw new StoreException.Fatal(where + " has column \"" + column.name()
                        + "\", which is not a lower-case" + " identifier matching " + Names.IDENTIFIER
                        + "; restores name every column, so rename it");
            }
        }
    }
}
