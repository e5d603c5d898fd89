package io.erasure.audit;

import io.erasure.model.contract.Topics;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code erasure.audit.*}.
 *
 * @param workers             unit workers (threads and group members) per replica; about one per core
 * @param unitsTopic          the units topic, {@code erasure.audit.units}; another name only isolates tests
 * @param unitsGroup          the consumer group sharing audit units between replicas
 * @param unitPartitions      partitions of {@code erasure.audit.units} when the service creates it: the most
 *                            workers that can share one audit across all replicas
 * @param loadParallelism     threads reading identifier backup parts when a run's identifiers are loaded
 * @param cachedRuns          runs whose identifier sets a replica keeps in memory at once
 * @param maxAttempts         tries of a unit before a transient error fails the run
 * @param retryPause          pause before the second try, growing linearly
 * @param maxUnitTime         the longest a unit may take before the group gives it to another worker
 * @param sstableReader       the SSTable reader that audits Cassandra backups (a child JVM per unit)
 * @param medusaTokenRanges   units per audit of a Cassandra backup (Medusa's or nodetool snapshots): each
 *                            downloads every node's SSTables of the table and reads its share of the token
 *                            ring, so more units spread the reading over more workers at the price of more
 *                            downloads
 */
@ConfigurationProperties("erasure.audit")
public record AuditProperties(
        @DefaultValue("2") int workers,
        @DefaultValue(Topics.AUDIT_UNITS) String unitsTopic,
        @DefaultValue("audit-service-units") String unitsGroup,
        @DefaultValue("12") int unitPartitions,
        @DefaultValue("2") int loadParallelism,
        @DefaultValue("1") int cachedRuns,
        @DefaultValue("5") int maxAttempts,
        @DefaultValue("2s") Duration retryPause,
        @DefaultValue("30m") Duration maxUnitTime,
        @DefaultValue SSTableReader sstableReader,
        @DefaultValue("1") int medusaTokenRanges) {

    /**
     * {@code erasure.audit.sstable-reader.*}.
     *
     * @param classpath the reader's classpath: the runtime-cassandra jar with identifier-set, process-guard and
     *                  cassandra-all with its dependencies, e.g. a folder of them as
     *                  {@code /opt/erasure/sstable-reader/*}; blank for runtime-cassandra's own on this JVM's
     *                  classpath (the local platform)
     * @param heap      the child JVM's {@code -Xmx}
     */
    public record SSTableReader(
            @DefaultValue("") String classpath,
            @DefaultValue("1g") String heap) {

        public SSTableReader {
            if (!heap.matches("[1-9][0-9]*[mMgG]")) {
                throw new IllegalArgumentException(
                        "erasure.audit.sstable-reader.heap must be a heap size such as 512m or 2g, got '" + heap + "'");
            }
        }
    }

    public AuditProperties {
        if (workers < 0) {
            throw new IllegalArgumentException(
                    "erasure.audit.workers must be >= 0 (0: this replica takes no units), got " + workers);
        }
        if (medusaTokenRanges < 1) {
            throw new IllegalArgumentException(
                    "erasure.audit.medusa-token-ranges must be >= 1, got " + medusaTokenRanges);
        }
        if (unitPartitions < 1) {
            throw new IllegalArgumentException("erasure.audit.unit-partitions must be >= 1, got " + unitPartitions);
        }
    }
}
