package io.erasure.model.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.cutoff.CutoffTimestamp;

/**
 * Event: the audit joined the backups; candidates are under {@code candidatesPrefix}. {@code specDigest} is
 * {@code SpecDigest} (service-support) of the frozen spec the audit worked on, which the control plane compares with
 * its run's; null from an audit-service that predates it (refused). {@code deletedNotPurged} counts what a Cassandra
 * backup's tombstones still held (rows and partitions deleted but not yet purged by compaction, so still in the
 * backup's files); 0 for other backups and from an audit-service that predates it.
 */
public record AuditCompleted(
        String dataset,
        String snapshot,
        CutoffTimestamp cutoff,
        long rowsScanned,
        long candidateCount,
        String candidatesPrefix,
        String specDigest,
        // an audit-service that predates it sends none, and absent is 0 (not a failure to read the event); 0 is not
        // written, so a control plane that predates it reads and verifies the event as before
        @JsonSetter(nulls = Nulls.AS_EMPTY) @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        long deletedNotPurged)
        implements EventPayload, RunScoped {

    public AuditCompleted {
        Names.datasetName("dataset", dataset);
        Require.nonBlank("snapshot", snapshot);
        Require.nonNull("cutoff", cutoff);
        Require.nonNegative("rowsScanned", rowsScanned);
        Require.nonNegative("candidateCount", candidateCount);
        Require.that(
                candidateCount <= rowsScanned,
                "candidateCount (" + candidateCount + ") cannot exceed rowsScanned (" + rowsScanned + ")");
        Require.nonBlank("candidatesPrefix", candidatesPrefix);
        Require.nonNegative("deletedNotPurged", deletedNotPurged);
    }

    /** An audit of a backup with no tombstones (the platform's own format, Parquet). */
    public AuditCompleted(
            String dataset,
            String snapshot,
            CutoffTimestamp cutoff,
            long rowsScanned,
            long candidateCount,
            String candidatesPrefix,
            String specDigest) {
        this(dataset, snapshot, cutoff, rowsScanned, candidateCount, candidatesPrefix, specDigest, 0);
    }
}
