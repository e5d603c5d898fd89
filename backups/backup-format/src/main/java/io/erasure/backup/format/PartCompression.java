package io.erasure.backup.format;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.erasure.model.dataset.BackupFormat;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Opens the (de)compressing stream of a part format, always with {@value #BUFFER_SIZE}-byte
 * buffers: {@code GZIPInputStream}'s default 512-byte buffer costs about a quarter of gunzip's
 * throughput (see PERFORMANCE.md).
 */
public final class PartCompression {

    public static final int BUFFER_SIZE = 64 * 1024;
    /** zstd level for exported parts: fast to write, decompression speed does not depend on it. */
    public static final int ZSTD_LEVEL = 3;

    private PartCompression() {}

    /** The decompressed content of a part; {@code raw} is closed with the result. */
    public static InputStream decompress(BackupFormat format, InputStream raw) {
        try {
            return switch (format) {
                case JSONL_GZIP -> new GZIPInputStream(raw, BUFFER_SIZE);
                case JSONL_ZSTD -> new ZstdInputStreamNoFinalizer(new BufferedInputStream(raw, BUFFER_SIZE));
                case CSV -> new BufferedInputStream(raw, BUFFER_SIZE);
                case PARQUET, SSTABLE -> throw notStreamed(format);
            };
        } catch (IOException e) {
            // a part whose first bytes are not a gzip header is corrupt, not an I/O hiccup
            throw new BackupIntegrityException("cannot open " + format + " part: " + e.getMessage(), e);
        }
    }

    /** A stream that compresses into {@code raw}; closing it finishes the format's trailer and closes {@code raw}. */
    public static OutputStream compress(BackupFormat format, OutputStream raw) {
        try {
            return switch (format) {
                case JSONL_GZIP -> gzip(raw, Deflater.DEFAULT_COMPRESSION);
                case JSONL_ZSTD ->
                    new BufferedOutputStream(new ZstdOutputStreamNoFinalizer(raw, ZSTD_LEVEL), BUFFER_SIZE);
                case CSV -> new BufferedOutputStream(raw, BUFFER_SIZE);
                case PARQUET, SSTABLE -> throw notStreamed(format);
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A gzip stream into {@code raw} at a {@link Deflater} level: {@link Deflater#BEST_SPEED} for files written on a
     * hot path and read once (the audit's candidates), where level 6 costs twice the CPU for about 5 % off the size
     * (20,000 candidate lines of random identifiers: 1.07 MB in 28 ms, 1.03 MB in 62 ms).
     */
    public static OutputStream gzip(OutputStream raw, int level) {
        try {
            return new GZIPOutputStream(raw, BUFFER_SIZE) {
                {
                    def.setLevel(level);
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails with {@link #notStreamed}'s message unless {@code format} is written and read as a stream. */
    public static void requireStreamed(BackupFormat format) {
        if (!format.streamed()) {
            throw notStreamed(format);
        }
    }

    private static IllegalArgumentException notStreamed(BackupFormat format) {
        return new IllegalArgumentException(
                format == BackupFormat.SSTABLE
                        ? "SSTABLE parts are a Cassandra cluster's own files, read from a cassandra-medusa backup: the"
                                + " exporter writes JSONL_GZIP, JSONL_ZSTD or CSV"
                        : "PARQUET parts are columnar files, not streams: the exporter writes JSONL_GZIP, JSONL_ZSTD or"
                                + " CSV, and only the audit reads Parquet parts (by column)");
    }
}
