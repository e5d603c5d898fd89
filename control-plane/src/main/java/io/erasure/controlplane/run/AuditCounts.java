package io.erasure.controlplane.run;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a run's audit found, as the run's {@code counts.audit} keeps it (and its receipt shows it).
 *
 * @param snapshot    the backup snapshot the audit joined
 * @param rowsScanned the rows of the snapshot it read
 * @param candidates  the rows it found to delete, before validation
 * @param deletedNotPurged rows and partitions a Cassandra backup's tombstones still held: deleted, but not yet
 *                         purged by compaction, so still in the backup's files (0 for other backups)
 */
public record AuditCounts(
        String snapshot,
        long rowsScanned,
        long candidates,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) long deletedNotPurged) {

    /** The counts of an audit of a backup with no tombstones: {@code deletedNotPurged} is absent, as before it was. */
    public AuditCounts(String snapshot, long rowsScanned, long candidates) {
        this(snapshot, rowsScanned, candidates, 0);
    }
}
