package io.erasure.audit.sstable;

/**
 * What one SSTable scan found.
 *
 * @param rowsScanned          live rows read, merged across replicas (each row once)
 * @param candidates           live rows whose identifier is deletable
 * @param deletedNotPurged     what tombstones still hold on disk: partition deletions, range tombstones and rows with
 *                             no live data left, until compaction purges them
 * @param staticOnlyPartitions partitions of deletable identifiers with live static columns and no live row: no full
 *                             primary key names them, so they are reported rather than deleted
 * @param scanCpuNanos         the reader's CPU time merging and reading (not starting, not loading the identifiers)
 */
public record ScanResult(
        int sstables,
        long rowsScanned,
        long candidates,
        long deletedNotPurged,
        long staticOnlyPartitions,
        long scanCpuNanos) {}
