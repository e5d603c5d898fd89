package io.erasure.deletionlog.client;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One record as the log holds it. The metadata is always readable; {@code primaryKey} and {@code columns}
 * are null when the record was purged (its dataset key is gone), and {@code columns} also when the reader
 * did not ask for full rows (only the RECOVERY role may). {@code anonymised}: the record of a forward deletion's
 * anonymisation, whose columns are only the ones it cleared (the row was kept); false for records logged before the
 * flag existed, which all deleted whole rows. {@code keptNewer}: at read-back the row was alive with a write after the
 * cut-off, so the delete did not apply to it (or only to its older cells); not counted as a deletion.
 */
public record LoggedRecord(
        String recordId,
        String dataset,
        String keyHash,
        Instant deletedAt,
        String runId,
        String requestId,
        String taskId,
        String batchId,
        long cutoffMicros,
        String retainedRef,
        boolean purged,
        Map<String, Object> primaryKey,
        List<ColumnValue> columns,
        boolean anonymised,
        boolean keptNewer) {

    /** A record that applied as logged. */
    public LoggedRecord(
            String recordId,
            String dataset,
            String keyHash,
            Instant deletedAt,
            String runId,
            String requestId,
            String taskId,
            String batchId,
            long cutoffMicros,
            String retainedRef,
            boolean purged,
            Map<String, Object> primaryKey,
            List<ColumnValue> columns,
            boolean anonymised) {
        this(
                recordId,
                dataset,
                keyHash,
                deletedAt,
                runId,
                requestId,
                taskId,
                batchId,
                cutoffMicros,
                retainedRef,
                purged,
                primaryKey,
                columns,
                anonymised,
                false);
    }

    /** The deletion record to restore from; only for a record read with its columns and not purged. */
    public DeletionRecord toDeletionRecord() {
        if (purged || primaryKey == null || columns == null) {
            throw new IllegalStateException("record " + recordId + " was "
                    + (purged ? "purged" : "read without its columns") + "; it cannot be restored");
        }
        return new DeletionRecord(
                recordId,
                dataset,
                primaryKey,
                columns,
                CutoffTimestamp.ofMicros(cutoffMicros),
                runId == null ? null : RunId.of(runId),
                requestId,
                taskId,
                batchId,
                deletedAt,
                retainedRef,
                anonymised,
                keptNewer);
    }

    public String originId() {
        return runId != null ? runId : requestId;
    }

    /** This record without its columns (metadata only). */
    public LoggedRecord withoutColumns() {
        return new LoggedRecord(
                recordId,
                dataset,
                keyHash,
                deletedAt,
                runId,
                requestId,
                taskId,
                batchId,
                cutoffMicros,
                retainedRef,
                purged,
                primaryKey,
                null,
                anonymised,
                keptNewer);
    }
}
