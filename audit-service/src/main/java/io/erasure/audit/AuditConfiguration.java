package io.erasure.audit;

import io.erasure.audit.cassandra.ClusterBackupSource;
import io.erasure.audit.join.IdentifierSetLoader;
import io.erasure.audit.scratch.ScratchSpace;
import io.erasure.audit.sstable.SSTableScan;
import io.erasure.audit.units.AuditEvents;
import io.erasure.audit.units.AuditPlanner;
import io.erasure.audit.units.AuditProgress;
import io.erasure.audit.units.RunCommandsListener;
import io.erasure.audit.units.RunContexts;
import io.erasure.audit.units.UnitProcessor;
import io.erasure.audit.units.UnitWorker;
import io.erasure.audit.units.UnitWorkers;
import io.erasure.backup.format.BackupBucket;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.support.S3Properties;
import io.erasure.support.trust.RunEventSealing;
import io.erasure.support.trust.SigningProperties;
import java.time.Clock;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/** Wires the audit: S3 backups in, candidate files and events out; no live store is reachable from here. */
@Configuration
@EnableConfigurationProperties(AuditProperties.class)
class AuditConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    BackupBucket backupBucket(S3Client s3, S3Properties s3Properties) {
        return new BackupBucket(s3, s3Properties.bucket());
    }

    @Bean
    AuditProgress auditProgress(BackupBucket bucket, JsonMapper json) {
        return new AuditProgress(bucket, json);
    }

    /**
     * Seals the audit's results on erasure.run.events with erasure.signing.private-key; without one the service refuses
     * to start, naming the property (the control plane applies no unsealed result).
     */
    @Bean
    AuditEvents auditEvents(
            KafkaTemplate<String, String> kafka,
            JsonMapper json,
            Clock clock,
            AuditProperties properties,
            SigningProperties signing) {
        return new AuditEvents(
                kafka, properties.unitsTopic(), json, clock, RunEventSealing.key(signing, "audit results"));
    }

    /**
     * Cassandra backups (Medusa's, nodetool snapshots), read by the SSTable reader in a child JVM per unit, with at
     * most a unit's time. A configured reader classpath is checked at start (a wrong one fails the service, naming
     * what it lacks); a blank one is resolved when such a unit first runs, so a deployment that audits none needs no
     * reader.
     */
    @Bean
    ClusterBackupSource clusterBackupSource(BackupBucket bucket, AuditProperties properties) {
        AuditProperties.SSTableReader reader = properties.sstableReader();
        String configured = reader.classpath().isBlank() ? null : SSTableScan.classpath(reader.classpath());
        return new ClusterBackupSource(
                bucket.s3(),
                bucket.bucket(),
                () -> new SSTableScan(
                        configured != null ? configured : SSTableScan.classpath(""),
                        properties.maxUnitTime(),
                        reader.heap()),
                properties.medusaTokenRanges(),
                CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN);
    }

    /** Removes what audit processes killed mid-unit left in the temporary folder (see {@link ScratchSpace}). */
    @Bean
    ApplicationRunner scratchSweep() {
        return args -> ScratchSpace.sweep();
    }

    @Bean
    AuditPlanner auditPlanner(
            BackupBucket bucket, AuditProgress progress, Clock clock, ClusterBackupSource clusterBackups) {
        return new AuditPlanner(bucket, progress, clock, clusterBackups);
    }

    @Bean
    RunContexts runContexts(
            BackupBucket bucket,
            AuditProgress progress,
            AuditProperties properties,
            ClusterBackupSource clusterBackups) {
        return new RunContexts(
                bucket,
                progress,
                new IdentifierSetLoader(bucket, properties.loadParallelism()),
                clusterBackups,
                properties.cachedRuns());
    }

    @Bean
    UnitProcessor unitProcessor(
            BackupBucket bucket,
            AuditProgress progress,
            RunContexts contexts,
            AuditEvents events,
            ObjectProvider<UnitProcessor.Observer> observer,
            ClusterBackupSource clusterBackups) {
        return new UnitProcessor(
                bucket,
                progress,
                contexts,
                events,
                observer.getIfAvailable(() -> UnitProcessor.Observer.NONE),
                clusterBackups);
    }

    @Bean
    RunCommandsListener runCommandsListener(
            AuditPlanner planner, AuditProgress progress, AuditEvents events, JsonMapper json) {
        return new RunCommandsListener(planner, progress, events, json);
    }

    @Bean
    UnitWorkers unitWorkers(
            ConsumerFactory<String, String> consumers,
            UnitProcessor processor,
            JsonMapper json,
            AuditProperties properties) {
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // one unit at a time: a rebalance never strands units this worker had fetched but not started
        overrides.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
        overrides.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        overrides.put(
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG,
                Long.toString(properties.maxUnitTime().toMillis()));
        AtomicInteger workerNumber = new AtomicInteger();
        return new UnitWorkers(
                () -> new UnitWorker(
                        () -> consumers.createConsumer(
                                properties.unitsGroup(),
                                "audit-units",
                                "-" + workerNumber.getAndIncrement(),
                                overrides),
                        properties.unitsTopic(),
                        processor,
                        json,
                        properties.maxAttempts(),
                        properties.retryPause()),
                properties.workers());
    }

    @Bean
    NewTopic auditUnitsTopic(AuditProperties properties) {
        return TopicBuilder.name(properties.unitsTopic())
                .partitions(properties.unitPartitions())
                .build();
    }

    /** Unavailable S3 or Kafka while planning: back off (1 s doubling to 1 min) for up to 15 minutes, then give up. */
    @Bean
    DefaultErrorHandler kafkaErrorHandler() {
        ExponentialBackOff backOff = new ExponentialBackOff(1_000, 2.0);
        backOff.setMaxInterval(60_000);
        backOff.setMaxElapsedTime(15 * 60_000);
        return new DefaultErrorHandler(backOff);
    }
}
