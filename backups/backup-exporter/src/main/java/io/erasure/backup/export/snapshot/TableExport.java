package io.erasure.backup.export.snapshot;

import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.backup.format.PartWriter;
import io.erasure.model.backup.BackupSchema;
import java.io.IOException;
import java.util.List;

/**
 * One live table read for a backup, one part at a time: read-only, paged, throttled. A store
 * implements it; {@link SnapshotExporter} turns it into a resumable snapshot in S3.
 *
 * <p>Lifecycle: {@code schema → (writePart)* until it returns null → close}. The cursor is opaque
 * text kept in the snapshot's progress marker, so an export that crashed resumes after the last
 * part it finished.
 */
public interface TableExport extends AutoCloseable {

    /** The live table's columns, key and identifier column as the manifest will state them. */
    BackupSchema schema();

    /** Columns whose per-cell write times the parts keep (Cassandra's WRITETIME); empty if the store has none. */
    List<String> writeTimeColumns();

    /**
     * Writes the rows of the next part into {@code part}, acquiring each row from {@code limiter}.
     *
     * @param cursor where the previous part ended, or null for the first part
     * @return the cursor after this part, or null if the table has no rows after it
     */
    String writePart(String cursor, PartWriter part, RowRateLimiter limiter) throws IOException, InterruptedException;

    @Override
    void close();
}
