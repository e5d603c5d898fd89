package io.erasure.audit.join;

import io.erasure.identifiers.IdentifierSet;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.dataset.BackupFormat;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/** The join of one backup part against the deletable identifiers, for the part's format. One per thread. */
public sealed interface PartJoiner permits PartJoin, ParquetPartJoin {

    /**
     * Joins the part read from {@code raw} (its stored bytes), closing it.
     *
     * @throws io.erasure.backup.format.BackupIntegrityException if the part does not match {@code part} (SHA-256,
     *                                                           row count) or cannot be decoded
     * @throws IOException                                       if reading fails for another reason (worth a retry)
     */
    JoinResult join(InputStream raw, ManifestPart part, CandidateSink sink) throws IOException;

    /**
     * @param keyColumns       the dataset's primary key, in order: each candidate carries all of them
     * @param identifierColumn the dataset's identifier column (present in {@code schema}, checked by the planner)
     */
    static PartJoiner of(
            BackupFormat format,
            BackupSchema schema,
            List<String> keyColumns,
            String identifierColumn,
            IdentifierSet identifiers) {
        return switch (format) {
            case JSONL_GZIP, JSONL_ZSTD, CSV -> new PartJoin(format, schema, keyColumns, identifierColumn, identifiers);
            case PARQUET -> new ParquetPartJoin(schema, keyColumns, identifierColumn, identifiers);
            case SSTABLE ->
                throw new IllegalArgumentException(
                        "SSTABLE parts are not parts of a manifest of ours: a Medusa backup is read by SSTableScan");
        };
    }
}
