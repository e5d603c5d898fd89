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
        @DefaultValue("30m") Duration maxUnitTime) {

    public AuditProperties {
        if (workers < 0) {
            throw new IllegalArgumentException(
                    "erasure.audit.workers must be >= 0 (0: this replica takes no units), got " + workers);
        }
        if (unitPartitions < 1) {
            throw new IllegalArgumentException("erasure.audit.unit-partitions must be >= 1, got " + unitPartitions);
        }
    }
}
