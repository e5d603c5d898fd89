package io.erasure.deletion;

import io.erasure.deletion.control.ControlCatchUp;
import io.erasure.deletion.control.ControlState;
import io.erasure.deletion.execution.BatchEvents;
import io.erasure.deletion.execution.BatchExecutor;
import io.erasure.deletion.execution.DeletionGate;
import io.erasure.deletion.execution.DeletionMetrics;
import io.erasure.deletion.execution.DeletionPaused;
import io.erasure.deletion.execution.ProcessedBatches;
import io.erasure.deletion.execution.StepListener;
import io.erasure.deletion.execution.StoreCalls;
import io.erasure.deletion.fanout.CopyFanOut;
import io.erasure.deletion.log.LogIngestionLag;
import io.erasure.deletion.log.WriteAheadDeletionLog;
import io.erasure.deletion.lookup.IdentifierResolver;
import io.erasure.deletion.shard.StoreLanes;
import io.erasure.deletion.shard.TaskListener;
import io.erasure.deletion.throttle.AdaptiveThrottle;
import io.erasure.deletion.throttle.ShardOwnership;
import io.erasure.deletion.throttle.SpreadPacer;
import io.erasure.deletion.trust.AuthorizedFinalSets;
import io.erasure.deletion.trust.RefusedTasks;
import io.erasure.deletion.trust.TaskVerifier;
import io.erasure.deletionlog.client.FrozenSpecs;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.model.contract.Topics;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.store.spi.StoreException;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.tasks.DeletionTaskPublisher;
import io.erasure.support.trust.RunEventSealing;
import io.erasure.support.trust.SigningProperties;
import io.erasure.support.trust.TaskSigner;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.backoff.ExponentialBackOff;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

@Configuration
@EnableScheduling
@EnableConfigurationProperties(DeletionProperties.class)
class DeletionConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    NewTopic deletionTasksTopic(
            @Value("${erasure.topics.task-partitions:8}") int partitions,
            @Value("${erasure.topics.replicas:1}") int replicas) {
        return TopicBuilder.name(Topics.DELETION_TASKS)
                .partitions(partitions)
                .replicas(replicas)
                .build();
    }

    /**
     * The tasks refused as not proven authentic ({@link RefusedTasks}), keyed by the run or request they claim; kept 7
     * days, like the log, so the control plane can count each once.
     */
    @Bean
    NewTopic refusedTasksTopic(
            @Value("${erasure.topics.refused-partitions:1}") int partitions,
            @Value("${erasure.topics.replicas:1}") int replicas) {
        return TopicBuilder.name(Topics.DELETION_TASKS_REFUSED)
                .partitions(partitions)
                .replicas(replicas)
                .config(
                        TopicConfig.RETENTION_MS_CONFIG,
                        Long.toString(Duration.ofDays(7).toMillis()))
                .build();
    }

    /** The log topic keeps records 7 days (DESIGN invariant 8); in production replicas 3, min.insync 2. */
    @Bean
    NewTopic deletionLogTopic(
            @Value("${erasure.topics.log-partitions:8}") int partitions,
            @Value("${erasure.topics.replicas:1}") int replicas) {
        return TopicBuilder.name(Topics.DELETION_LOG)
                .partitions(partitions)
                .replicas(replicas)
                .config(
                        TopicConfig.RETENTION_MS_CONFIG,
                        Long.toString(Duration.ofDays(7).toMillis()))
                .config(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false")
                .config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(Math.min(2, replicas)))
                .build();
    }

    @Bean
    ShardOwnership shardOwnership(@Value("${erasure.topics.task-partitions:8}") int partitions) {
        // fed by the lane of the service's own group (StoreLanes), the one group every replica's share is counted in
        ShardOwnership ownership = new ShardOwnership();
        ownership.totalPartitions(partitions);
        return ownership;
    }

    @Bean
    AdaptiveThrottle adaptiveThrottle(DeletionProperties properties, ShardOwnership ownership, MeterRegistry meters) {
        return new AdaptiveThrottle(properties, ownership, meters);
    }

    @Bean
    ThrottleLoop throttleLoop(AdaptiveThrottle throttle, StoreAdapterPool stores) {
        return new ThrottleLoop(throttle, stores);
    }

    @Bean(destroyMethod = "close")
    Admin kafkaAdminClient(KafkaAdmin kafkaAdmin) {
        return Admin.create(kafkaAdmin.getConfigurationProperties());
    }

    @Bean
    LogIngestionLag logIngestionLag(
            Admin admin,
            KafkaAdmin kafkaAdmin,
            DeletionProperties properties,
            @Value("${erasure.deletion.log-ingest-group:deletion-log-service}") String group) {
        Map<String, Object> reader = new HashMap<>(kafkaAdmin.getConfigurationProperties());
        reader.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        reader.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new LogIngestionLag(
                admin,
                () -> new KafkaConsumer<>(reader, new StringDeserializer(), new StringDeserializer()),
                group,
                properties.logLagThreshold(),
                Duration.ofSeconds(2));
    }

    @Bean
    WriteAheadDeletionLog writeAheadDeletionLog(
            KafkaTemplate<String, String> kafka,
            S3Client s3,
            JsonMapper json,
            @Value("${erasure.s3.bucket}") String bucket,
            DeletionProperties properties,
            Supplier<SealedRecords> sealedRecords,
            Supplier<FrozenSpecs> frozenSpecs) {
        return new WriteAheadDeletionLog(
                kafka, s3, bucket, json, properties.maxRecordBytes(), sealedRecords, frozenSpecs);
    }

    @Bean
    StoreCalls storeCalls(DeletionProperties properties, MeterRegistry meters) {
        return new StoreCalls(properties.retryAttempts(), Duration.ofMillis(200), Duration.ofSeconds(20), meters);
    }

    /**
     * Batch results, sealed with this service's key (erasure.signing.private-key): the control plane applies no other.
     */
    @Bean
    BatchEvents batchEvents(
            KafkaTemplate<String, String> kafka, JsonMapper json, Clock clock, SigningProperties signing) {
        return new BatchEvents(kafka, json, clock, RunEventSealing.key(signing, "batch results"));
    }

    @Bean
    DeletionTaskPublisher deletionTaskPublisher(
            KafkaTemplate<String, String> kafka, JsonMapper json, SigningProperties signing, Clock clock) {
        // the copy and lookup tasks this service derives are signed with its own key, trusted for COPY and FORWARD only
        return new DeletionTaskPublisher(kafka, json, new TaskSigner(signing.signingKey(), "deletion-service", clock));
    }

    @Bean
    ProcessedBatches processedBatches(JdbcTemplate jdbc) {
        return new ProcessedBatches(jdbc);
    }

    /** Runs spread over a window are paced on the fleet's progress (processed batches), at this replica's share. */
    @Bean
    SpreadPacer spreadPacer(ProcessedBatches processed, ShardOwnership ownership, Clock clock) {
        return new SpreadPacer(processed, ownership, clock, SpreadPacer.Sleeper.THREAD);
    }

    @Bean
    BatchExecutor batchExecutor(
            StoreAdapterPool stores,
            WriteAheadDeletionLog deletionLog,
            LogIngestionLag lag,
            AdaptiveThrottle throttle,
            SpreadPacer pacer,
            ControlState control,
            ProcessedBatches processed,
            DeletionTaskPublisher publisher,
            BatchEvents events,
            StoreCalls calls,
            JdbcTemplate jdbc,
            JsonMapper json,
            MeterRegistry meters,
            ObjectProvider<StepListener> steps,
            DeletionProperties properties,
            Clock clock) {
        return new BatchExecutor(
                stores,
                deletionLog,
                new DeletionGate(control, lag, properties.killSwitchPoll(), properties.pauseHold(), clock),
                throttle,
                pacer,
                processed,
                new CopyFanOut(publisher, json, jdbc),
                events,
                calls,
                new DeletionMetrics(meters),
                steps.getIfAvailable(() -> StepListener.NONE),
                clock);
    }

    @Bean
    IdentifierResolver identifierResolver(
            StoreAdapterPool stores,
            StoreCalls calls,
            AdaptiveThrottle throttle,
            DeletionTaskPublisher publisher,
            BatchEvents events,
            JdbcTemplate jdbc,
            JsonMapper json,
            DeletionProperties properties,
            Clock clock) {
        return new IdentifierResolver(
                stores,
                calls,
                throttle,
                publisher,
                events,
                jdbc,
                json,
                properties.forwardLookupRetention(),
                clock,
                properties.forwardLookupMaxKeys());
    }

    @Bean
    ControlCatchUp controlCatchUp(ControlState control, ConsumerFactory<?, ?> consumers, StoreLanes lanes) {
        return new ControlCatchUp(control, consumers, lanes::start);
    }

    /** One execution lane per configured store, so a slow or failing store holds back only its own tasks. */
    @Bean
    StoreLanes storeLanes(
            ConcurrentKafkaListenerContainerFactory<?, ?> factory,
            TaskListener listener,
            StoreAdapterPool stores,
            ShardOwnership ownership,
            Admin admin,
            @Value("${erasure.deletion.group:deletion-service}") String group,
            @Value("${erasure.deletion.shards-per-replica:2}") int shards) {
        return new StoreLanes(factory, listener, stores.connectionRefs(), group, shards, ownership, admin);
    }

    @Bean
    RefusedTasks refusedTasks(
            KafkaTemplate<String, String> kafka,
            JsonMapper json,
            Clock clock,
            MeterRegistry meters,
            SigningProperties signing) {
        return new RefusedTasks(kafka, json, clock, meters, signing.signingKey());
    }

    @Bean
    TaskListener taskListener(
            BatchExecutor executor,
            IdentifierResolver lookups,
            TaskVerifier verifier,
            RefusedTasks refused,
            JsonMapper json,
            DeletionProperties properties,
            Clock clock,
            MeterRegistry meters) {
        return new TaskListener(executor, lookups, verifier, refused, json, properties.pollBudget(), clock, meters);
    }

    /** Only authorized tasks delete: a run's are checked against its signed final set in S3. */
    @Bean
    TaskVerifier taskVerifier(
            TrustedKeys trusted, S3Client s3, @Value("${erasure.s3.bucket}") String bucket, JsonMapper json) {
        return new TaskVerifier(
                trusted,
                new AuthorizedFinalSets(s3, bucket, json),
                EnumSet.of(Authorization.Kind.RUN, Authorization.Kind.FORWARD, Authorization.Kind.COPY));
    }

    /**
     * A store still failing after the executor's retries: the poll is redelivered after a backoff
     * (1 s doubling to 1 min, without end), so the shard resumes once the store is back.
     */
    @Bean
    DefaultErrorHandler kafkaErrorHandler() {
        ExponentialBackOff backOff = new ExponentialBackOff(1_000, 2.0);
        backOff.setMaxInterval(60_000);
        DefaultErrorHandler handler = new DefaultErrorHandler(backOff);
        handler.addRetryableExceptions(StoreException.Retriable.class, DeletionPaused.class);
        return handler;
    }

    /** Reads each store's load signal and moves its deletion rate, every control interval. */
    static final class ThrottleLoop {
        private final AdaptiveThrottle throttle;
        private final StoreAdapterPool stores;

        ThrottleLoop(AdaptiveThrottle throttle, StoreAdapterPool stores) {
            this.throttle = throttle;
            this.stores = stores;
        }

        @Scheduled(fixedDelayString = "${erasure.deletion.control-interval:1s}")
        void adjust() {
            throttle.adjust(store -> stores.adapter(store).loadSignal());
        }
    }
}
