package io.erasure.model.dataset;

/** File format of backup parts; the extension is part of the S3 layout. */
public enum BackupFormat {
    JSONL_GZIP(".jsonl.gz"),
    JSONL_ZSTD(".jsonl.zst"),
    CSV(".csv");

    private final String extension;

    BackupFormat(String extension) {
        this.extension = extension;
    }

    /** The file-name suffix including the leading dot, e.g. {@code .jsonl.gz}. */
    public String extension() {
        return extension;
    }
}
