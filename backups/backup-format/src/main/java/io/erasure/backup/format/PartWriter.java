package io.erasure.backup.format;

import io.erasure.model.backup.ManifestPart;
import io.erasure.model.dataset.BackupFormat;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Writes one part file: rows → text format → compression → SHA-256 → sink (an S3 multipart upload
 * or any stream). {@link #finish()} completes the file and returns its manifest entry;
 * {@link #abort()} gives it up so no partial object ever appears.
 *
 * <p>Lifecycle: {@code open → write* → (finish | abort)}. Not thread-safe.
 */
public final class PartWriter {

    private final String name;
    private final GuardedSink sink;
    private final ChecksummingOutputStream checksum;
    private final OutputStream compressed;
    private final RowWriter rows;
    private final Runnable abortSink;
    private long rowCount;
    private boolean done;

    private PartWriter(
            String name,
            BackupFormat format,
            OutputStream target,
            Runnable abortSink,
            List<String> columns,
            List<String> writeTimeColumns) {
        this.name = name;
        this.abortSink = abortSink;
        this.sink = new GuardedSink(target);
        this.checksum = new ChecksummingOutputStream(sink);
        this.compressed = PartCompression.compress(format, checksum);
        try {
            this.rows = RowWriter.forFormat(format, compressed, columns, writeTimeColumns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A part uploaded to {@code bucket/key}; its manifest name is the last segment of the key. */
    public static PartWriter toS3(
            S3Client s3,
            String bucket,
            String key,
            BackupFormat format,
            List<String> columns,
            List<String> writeTimeColumns) {
        MultipartUploadStream upload = new MultipartUploadStream(s3, bucket, key);
        return new PartWriter(
                key.substring(key.lastIndexOf('/') + 1), format, upload, upload::abort, columns, writeTimeColumns);
    }

    /** A part written to any stream (tests, local files); {@code out} is closed by {@link #finish()}. */
    public static PartWriter toStream(
            OutputStream out, String name, BackupFormat format, List<String> columns, List<String> writeTimeColumns) {
        return new PartWriter(name, format, out, () -> {}, columns, writeTimeColumns);
    }

    public void write(BackupRow row) throws IOException {
        rows.write(row);
        rowCount++;
    }

    /**
     * Appends one row that is already a JSON Lines line (a JSON object, without the newline), as a
     * store's own JSON export produces it (PostgreSQL's {@code row_to_json}). Only for JSON Lines
     * parts, and not mixed with {@link #write} in one part.
     */
    public void writeJsonLine(byte[] line, int offset, int length) throws IOException {
        if (!(rows instanceof JsonLinesRowWriter)) {
            throw new IllegalStateException("writeJsonLine is for JSON Lines parts; part " + name + " is CSV");
        }
        compressed.write(line, offset, length);
        compressed.write('\n');
        rowCount++;
    }

    /**
     * Appends one CSV record exactly as given (with its line end), as PostgreSQL's
     * {@code COPY ... (FORMAT csv)} produces it. Only for CSV parts, and not mixed with {@link #write}.
     */
    public void writeCsvRecord(byte[] record, int offset, int length) throws IOException {
        if (!(rows instanceof CsvRowWriter csv)) {
            throw new IllegalStateException("writeCsvRecord is for CSV parts; part " + name + " is JSON Lines");
        }
        csv.flush();
        compressed.write(record, offset, length);
        rowCount++;
    }

    public long rowCount() {
        return rowCount;
    }

    /** Flushes, finishes compression, completes the upload; returns name, row count and SHA-256. */
    public ManifestPart finish() throws IOException {
        if (done) {
            throw new IllegalStateException("part " + name + " is already finished or aborted");
        }
        done = true;
        try {
            rows.flush();
            compressed.close();
        } catch (IOException | RuntimeException e) {
            sink.abandon();
            abortSink.run();
            throw e;
        }
        return new ManifestPart(name, rowCount, checksum.sha256Hex());
    }

    /** Gives the part up: the compressor's resources are released and nothing is stored. Idempotent. */
    public void abort() {
        if (done) {
            return;
        }
        done = true;
        sink.abandon();
        try {
            compressed.close();
        } catch (IOException | RuntimeException e) {
            // only releasing native buffers here; the upload is aborted below either way
        }
        abortSink.run();
    }

    /** Closes the target only if the part was not abandoned, so an abort never completes an upload. */
    private static final class GuardedSink extends FilterOutputStream {
        private boolean abandoned;

        GuardedSink(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (!abandoned) {
                out.write(b, off, len);
            }
        }

        @Override
        public void write(int b) throws IOException {
            if (!abandoned) {
                out.write(b);
            }
        }

        void abandon() {
            abandoned = true;
        }

        @Override
        public void close() throws IOException {
            if (!abandoned) {
                out.close();
            }
        }
    }
}
