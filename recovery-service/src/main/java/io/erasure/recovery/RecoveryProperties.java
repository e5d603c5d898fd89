package io.erasure.recovery;

import io.erasure.recovery.restore.BulkRestores;
import io.erasure.store.spi.BulkRestoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param rowsPerSecond       restored rows per second per store connection ({@code erasure.recovery.rows-per-second})
 * @param batchSize           records per adapter call (at most {@code rowsPerSecond})
 * @param pageSize            records a recovery reads from the deletion log at a time (by keys: keys), at most
 *                            1,000 (the log's largest page; {@code erasure.recovery.page-size}); a recovery holds one
 *                            page (the bulk path: one bulk batch), however many records its run or window has
 * @param workers             recoveries run at once by this replica
 * @param bulkThreshold       a recovery of a Cassandra dataset with at least this many records to restore takes the
 *                            bulk path (SSTables written in a child JVM, imported into the node, read back) instead of
 *                            the adapter's online writes; 0 or negative: never
 *                            ({@code erasure.recovery.bulk-threshold})
 * @param bulkBatchSize       records per bulk restore (one SSTable writer JVM and one import each); progress is stored
 *                            after each
 * @param bulkWriterClasspath the SSTable writer's classpath ({@code erasure.recovery.bulk-writer-classpath}): the
 *                            runtime-cassandra jar and its runtime dependencies, e.g.
 *                            {@code /opt/erasure/sstable-writer/*}; empty: runtime-cassandra's, if it is on this
 *                            service's classpath (tests, local platform)
 * @param bulkWorkDir         where SSTables are written before the import moves them into the node: must be on a
 *                            filesystem the node sees at the same path; empty:
 *                            {@code <java.io.tmpdir>/erasure-bulk-restores}
 * @param bulkWriterHeap      the SSTable writer's {@code -Xmx}
 * @param bulkWriterTimeout   how long one SSTable writer (and one sstableloader) may run
 * @param bulkLoader          how the bulk path loads its SSTables ({@code erasure.recovery.bulk-loader}):
 *                            {@code import} (JMX {@code importNewSSTables}, "nodetool import": the node must see the
 *                            work dir at the same path), {@code sstableloader} (streams to every replica's storage
 *                            port: remote nodes and clusters; the connection's {@code storage-port}, default 7000, and
 *                            optional {@code sstableloader-config}), or {@code auto} (default): import when the
 *                            connection's JMX host is this machine and the work dir exists or can be created,
 *                            sstableloader otherwise
 */
@ConfigurationProperties("erasure.recovery")
public record RecoveryProperties(
        @DefaultValue("500") int rowsPerSecond,
        @DefaultValue("100") int batchSize,
        @DefaultValue("500") int pageSize,
        @DefaultValue("2") int workers,
        @DefaultValue("20000") int bulkThreshold,
        @DefaultValue("50000") int bulkBatchSize,
        String bulkWriterClasspath,
        String bulkWorkDir,
        @DefaultValue("512m") String bulkWriterHeap,
        @DefaultValue("10m") Duration bulkWriterTimeout,
        @DefaultValue("auto") String bulkLoader) {

    public RecoveryProperties {
        if (batchSize < 1 || workers < 1) {
            throw new IllegalArgumentException(
                    "erasure.recovery.batch-size and .workers must be >= 1, got " + batchSize + ", " + workers);
        }
        if (bulkBatchSize < 1) {
            throw new IllegalArgumentException("erasure.recovery.bulk-batch-size must be >= 1, got " + bulkBatchSize);
        }
        if (bulkWriterHeap == null || !bulkWriterHeap.matches("\\d+[kmgKMG]")) {
            throw new IllegalArgumentException(
                    "erasure.recovery.bulk-writer-heap must look like 512m or 1g, got '" + bulkWriterHeap + "'");
        }
        if (bulkWriterTimeout == null || bulkWriterTimeout.isNegative() || bulkWriterTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "erasure.recovery.bulk-writer-timeout must be positive, got " + bulkWriterTimeout);
        }
    }

    /**
     * The {@code bulk-*} settings for the bulk restore providers; the loader is checked by each provider when the bulk
     * path is enabled ({@link BulkRestores}), failing the start with the setting's name.
     */
    public BulkRestoreOptions bulkOptions() {
        return new BulkRestoreOptions(
                BulkRestores.PREFIX,
                bulkWorkPath(),
                bulkWriterTimeout,
                bulkWriterHeap,
                bulkWriterClasspath,
                bulkLoader);
    }

    /** {@link #bulkWorkDir()} as a path, with its default. */
    public Path bulkWorkPath() {
        return bulkWorkDir == null || bulkWorkDir.isBlank()
                ? Path.of(System.getProperty("java.io.tmpdir"), "erasure-bulk-restores")
                : Path.of(bulkWorkDir);
    }
}
