package io.erasure.model.dataset;

/**
 * File format of backup parts; the extension is part of the S3 layout. JSON lines and CSV parts are
 * written by the platform's exporter and read as streams; {@link #PARQUET} parts are a team's own
 * Parquet files listed in a manifest of ours, read by column (identifier first); {@link #SSTABLE} parts are
 * a Cassandra cluster's own SSTables, in a {@link BackupLayout#MEDUSA} backup only.
 */
public enum BackupFormat {
    JSONL_GZIP(".jsonl.gz"),
    JSONL_ZSTD(".jsonl.zst"),
    CSV(".csv"),
    PARQUET(".parquet"),
    SSTABLE("-Data.db");

    private final String extension;

    BackupFormat(String extension) {
        this.extension = extension;
    }

    /** True for formats read as a stream of records (JSON lines, CSV); false for columnar files. */
    public boolean streamed() {
        return this != PARQUET && this != SSTABLE;
    }

    /** The file-name suffix including the leading dot, e.g. {@code .jsonl.gz}. */
    public String extension() {
        return extension;
    }
}
