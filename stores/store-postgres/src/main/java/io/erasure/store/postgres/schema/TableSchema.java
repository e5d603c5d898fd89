package io.erasure.store.postgres.schema;

import java.util.List;
import java.util.Optional;

/**
 * A table as the catalog describes it: its columns in order, its primary key, and the foreign keys of
 * other tables (or itself) that reference it.
 *
 * @param oid the table's {@code pg_class.oid} ({@link SchemaVersion} watches it); 0 when not read from a catalog
 */
public record TableSchema(
        String namespace,
        String table,
        List<ColumnInfo> columns,
        List<String> primaryKey,
        List<Reference> referencedBy,
        long oid) {

    public TableSchema {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        referencedBy = List.copyOf(referencedBy);
    }

    /** A table described without a catalog (SQL text tests). */
    public TableSchema(
            String namespace,
            String table,
            List<ColumnInfo> columns,
            List<String> primaryKey,
            List<Reference> referencedBy) {
        this(namespace, table, columns, primaryKey, referencedBy, 0);
    }

    public String qualifiedName() {
        return namespace + "." + table;
    }

    public Optional<ColumnInfo> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The columns a restore writes: all but generated ones. */
    public List<ColumnInfo> writableColumns() {
        return columns.stream().filter(c -> !c.generated()).toList();
    }

    /**
     * A foreign key of {@code namespace.table} that references this table.
     *
     * @param onDelete {@code pg_constraint.confdeltype}: a = no action, r = restrict, c = cascade, n = set null, d =
     *                 set default
     */
    public record Reference(String namespace, String table, String constraint, char onDelete) {

        public String qualifiedName() {
            return namespace + "." + table;
        }

        public String onDeleteText() {
            return switch (onDelete) {
                case 'c' -> "ON DELETE CASCADE";
                case 'n' -> "ON DELETE SET NULL";
                case 'd' -> "ON DELETE SET DEFAULT";
                case 'r' -> "ON DELETE RESTRICT";
                default -> "ON DELETE NO ACTION";
            };
        }
    }
}
