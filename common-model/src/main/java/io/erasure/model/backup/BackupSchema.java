package io.erasure.model.backup;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.dataset.KeyColumns;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shape of a backup's rows: columns with types, the key columns and the identifier column, all among the columns.
 */
public record BackupSchema(List<ColumnSchema> columns, KeyColumns keyColumns, String identifierColumn) {

    public BackupSchema {
        columns = Require.nonEmptyListOf("schema.columns", columns);
        Require.nonNull("schema.keyColumns", keyColumns);
        Names.identifier("schema.identifierColumn", identifierColumn);
        Set<String> names = new HashSet<>();
        for (ColumnSchema column : columns) {
            if (!names.add(column.name())) {
                throw new IllegalArgumentException("schema.columns lists '" + column.name() + "' twice");
            }
        }
        for (String keyColumn : keyColumns.primaryKey()) {
            Require.that(
                    names.contains(keyColumn),
                    "schema.keyColumns names '" + keyColumn + "' which is not in schema.columns");
        }
        Require.that(
                names.contains(identifierColumn),
                "schema.identifierColumn '" + identifierColumn + "' is not in schema.columns");
    }
}
