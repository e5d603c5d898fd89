package io.erasure.audit.rds;

import io.erasure.model.backup.BackupSchema;
import io.erasure.model.check.Require;
import java.util.List;

/**
 * The table of an Amazon RDS snapshot export that an audit reads, fixed when it is planned.
 *
 * @param target the export's name of the table, {@code <database>.<schema>.<table>}
 * @param schema the identifier and key columns with the source's types, as the export's
 *               {@code originalTypeMappings} give them
 * @param parts  its Parquet files, in key order: unit {@code i} reads part {@code i}
 */
public record ExportedTable(String target, BackupSchema schema, List<ExportedPart> parts) {

    public ExportedTable {
        Require.nonBlank("target", target);
        Require.nonNull("schema", schema);
        parts = Require.listOf("parts", parts);
    }
}
