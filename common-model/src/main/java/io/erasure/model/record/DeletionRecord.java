package io.erasure.model.record;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The write-ahead copy of one deleted row: published to {@code erasure.deletion.log} and
 * acknowledged before the row is deleted, kept 30 days, and the source of every restore.
 *
 * <p>{@code recordId} is {@link #recordIdFor SHA-256 of (run or request id, dataset, canonical
 * primary key)}, so a record re-published after a crash or a redelivered task is stored once.
 * A row too large for one Kafka message has its columns in S3 under {@code retainedRef} (a key
 * under {@code retained/}) and an empty column list here.
 *
 * <p>{@code keptNewer}: at read-back the row was alive with a write after the cut-off, so the delete did not
 * apply to it (or only to its cells older than the cut-off, which a restore can still bring back). The deletion
 * service publishes such a record a second time with the flag set; the log keeps the flagged copy. It is not
 * counted as deleted, and seeing its row alive later is no resurrection.
 */
public record DeletionRecord(
        String recordId,
        String dataset,
        Map<String, Object> primaryKey,
        List<ColumnValue> columns,
        CutoffTimestamp cutoff,
        @Nullable RunId runId,
        @Nullable String requestId,
        String taskId,
        String batchId,
        Instant deletedAt,
        @Nullable String retainedRef,
        @Nullable Boolean anonymised,
        @Nullable Boolean keptNewer) {

    private static final Pattern RECORD_ID = Pattern.compile("[0-9a-f]{64}");

    public DeletionRecord {
        Require.nonNull("record.recordId", recordId);
        if (!RECORD_ID.matcher(recordId).matches()) {
            throw new IllegalArgumentException("record.recordId must be 64 lower-case hex characters (SHA-256),"
                    + " computed by DeletionRecord.recordIdFor(...), got " + Require.echo(recordId));
        }
        Names.datasetName("record.dataset", dataset);
        primaryKey = CanonicalKey.copyOf("record.primaryKey", primaryKey);
        if ((runId == null) == (requestId == null)) {
            throw new IllegalArgumentException("record must have exactly one of runId and requestId, got runId=" + runId
                    + ", requestId=" + requestId);
        }
        if (requestId != null) {
            Names.opaqueId("record.requestId", requestId);
        }
        columns = Require.listOf("record.columns", columns);
        requireUniqueColumns(columns);
        if (columns.isEmpty() && retainedRef == null) {
            throw new IllegalArgumentException("record.columns must hold the row's columns, or retainedRef must point"
                    + " to them in S3; a record with neither could not restore the row");
        }
        if (retainedRef != null && !retainedRef.startsWith("retained/" + dataset + "/")) {
            throw new IllegalArgumentException("record.retainedRef must be an S3 key under 'retained/" + dataset
                    + "/', got " + Require.echo(retainedRef));
        }
        Require.nonNull("record.cutoff", cutoff);
        Names.opaqueId("record.taskId", taskId);
        Names.opaqueId("record.batchId", batchId);
        Require.nonNull("record.deletedAt", deletedAt);
        // records published before the flag existed carry none: they are whole-row deletions
        anonymised = Boolean.TRUE.equals(anonymised);
        keptNewer = Boolean.TRUE.equals(keptNewer);
    }

    /** A record that applied as logged (see {@code keptNewer}). */
    public DeletionRecord(
            String recordId,
            String dataset,
            Map<String, Object> primaryKey,
            List<ColumnValue> columns,
            CutoffTimestamp cutoff,
            @Nullable RunId runId,
            @Nullable String requestId,
            String taskId,
            String batchId,
            Instant deletedAt,
            @Nullable String retainedRef,
            Boolean anonymised) {
        this(
                recordId,
                dataset,
                primaryKey,
                columns,
                cutoff,
                runId,
                requestId,
                taskId,
                batchId,
                deletedAt,
                retainedRef,
                anonymised,
                false);
    }

    /** The record of a deleted row. */
    public DeletionRecord(
            String recordId,
            String dataset,
            Map<String, Object> primaryKey,
            List<ColumnValue> columns,
            CutoffTimestamp cutoff,
            @Nullable RunId runId,
            @Nullable String requestId,
            String taskId,
            String batchId,
            Instant deletedAt,
            @Nullable String retainedRef) {
        this(
                recordId,
                dataset,
                primaryKey,
                columns,
                cutoff,
                runId,
                requestId,
                taskId,
                batchId,
                deletedAt,
                retainedRef,
                false);
    }

    /**
     * The record of one row deleted by {@code task}, or, for an anonymising task, of the columns it clears
     * ({@code columns} then holds only those); ids, dataset and cut-off come from the task.
     */
    public static DeletionRecord of(
            DeletionTask task,
            String batchId,
            Map<String, Object> primaryKey,
            List<ColumnValue> columns,
            Instant deletedAt) {
        return new DeletionRecord(
                recordIdFor(task.originId(), task.dataset(), primaryKey),
                task.dataset(),
                primaryKey,
                columns,
                task.cutoff(),
                task.runId(),
                task.requestId(),
                task.taskId(),
                batchId,
                deletedAt,
                null,
                task.anonymising());
    }

    /**
     * The deterministic record id: 64 hex characters of SHA-256 over (run or request id, dataset,
     * the primary key in canonical form: columns sorted, values as in JSON).
     */
    public static String recordIdFor(String runOrRequestId, String dataset, Map<String, ?> primaryKey) {
        Require.nonNull("runOrRequestId", runOrRequestId);
        Require.nonNull("dataset", dataset);
        Require.nonNull("primaryKey", primaryKey);
        return DeterministicId.sha256Hex(
                "deletion-record-v1", runOrRequestId, dataset, CanonicalKey.render(primaryKey));
    }

    /** This record with its columns moved to S3 at {@code s3Key} (see {@code S3Layout.retainedKey}). */
    public DeletionRecord withRetainedColumns(String s3Key) {
        Require.nonBlank("retainedRef", s3Key);
        return new DeletionRecord(
                recordId,
                dataset,
                primaryKey,
                List.of(),
                cutoff,
                runId,
                requestId,
                taskId,
                batchId,
                deletedAt,
                s3Key,
                anonymised,
                keptNewer);
    }

    /** This record marked as not applied: its row was found alive with a write after the cut-off at read-back. */
    public DeletionRecord asKeptNewer() {
        return new DeletionRecord(
                recordId,
                dataset,
                primaryKey,
                columns,
                cutoff,
                runId,
                requestId,
                taskId,
                batchId,
                deletedAt,
                retainedRef,
                anonymised,
                true);
    }

    /**
     * True if {@code recordId} is the id of this row. Not enforced on construction: a key value that
     * JSON cannot carry exactly (a long decimal) must not make a logged record unreadable.
     */
    public boolean idMatchesContent() {
        return recordId.equals(recordIdFor(originId(), dataset, primaryKey));
    }

    public String originId() {
        return runId != null ? runId.value() : Objects.requireNonNull(requestId, "neither a run nor a request");
    }

    private static void requireUniqueColumns(List<ColumnValue> columns) {
        Set<String> names = new HashSet<>();
        for (ColumnValue column : columns) {
            if (!names.add(column.name())) {
                throw new IllegalArgumentException("record.columns lists column '" + column.name() + "' twice");
            }
        }
    }
}
