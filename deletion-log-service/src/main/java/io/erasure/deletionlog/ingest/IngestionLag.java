package io.erasure.deletionlog.ingest;

import io.erasure.model.contract.Topics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

/**
 * How far log ingestion is behind the topic: per partition, the end offset (of committed transactions)
 * minus the group's committed offset. The deletion service pauses while this passes a threshold, so a
 * lagging log never holds the only copy of deleted rows for long. Also the gauge
 * {@code erasure.deletion_log.lag}.
 */
@Component
public class IngestionLag implements DisposableBean {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    public record Lag(String topic, String group, long total, Map<Integer, Long> partitions) {
    }

    private final Admin admin;

    public IngestionLag(KafkaAdmin kafkaAdmin, MeterRegistry meters) {
        this.admin = Admin.create(kafkaAdmin.getConfigurationProperties());
        Gauge.builder("erasure.deletion_log.lag", this, lag -> {
            try {
                return lag.current().total();
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        }).description("records on " + Topics.DELETION_LOG + " not yet stored in the log").register(meters);
    }

    public Lag current() {
        try {
            TopicDescription topic;
            try {
                topic = admin.describeTopics(java.util.List.of(Topics.DELETION_LOG)).allTopicNames()
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(Topics.DELETION_LOG);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    return new Lag(Topics.DELETION_LOG, DeletionLogListener.GROUP, 0, Map.of());
                }
                throw e;
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            topic.partitions().forEach(p -> latest.put(new TopicPartition(Topics.DELETION_LOG, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin
                    .listOffsets(latest, new org.apache.kafka.clients.admin.ListOffsetsOptions(
                            org.apache.kafka.common.IsolationLevel.READ_COMMITTED))
                    .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(DeletionLogListener.GROUP)
                    .partitionsToOffsetAndMetadata().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<Integer, Long> partitions = new TreeMap<>();
            long total = 0;
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end : ends.entrySet()) {
                OffsetAndMetadata done = committed.get(end.getKey());
                long lag = Math.max(0, end.getValue().offset() - (done == null ? 0 : done.offset()));
                partitions.put(end.getKey().partition(), lag);
                total += lag;
            }
            return new Lag(Topics.DELETION_LOG, DeletionLogListener.GROUP, total, partitions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring the ingestion lag", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot measure the ingestion lag of " + Topics.DELETION_LOG + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void destroy() {
        admin.close(Duration.ofSeconds(2));
    }
}
