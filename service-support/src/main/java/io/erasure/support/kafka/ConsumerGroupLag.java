package io.erasure.support.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * How far a consumer group is behind a topic: per partition, the end offset of committed transactions
 * minus the group's committed offset. A partition the group never committed is behind by all it holds; a
 * topic that does not exist yet has no lag. Shared by the deletion service (which pauses while the
 * deletion log's ingestion lags) and the deletion-log service (which reports it).
 */
public final class ConsumerGroupLag {

    /** {@code committed}: whether the group has committed an offset on any partition of the topic. */
    public record Lag(String topic, String group, long total, Map<Integer, Long> partitions, boolean committed) {}

    private ConsumerGroupLag() {}

    /** @throws IllegalStateException if the brokers do not answer within {@code timeout} */
    public static Lag measure(Admin admin, String topic, String group, Duration timeout) {
        long wait = timeout.toMillis();
        try {
            TopicDescription description;
            try {
                description = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(wait, TimeUnit.MILLISECONDS)
                        .get(topic);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    return new Lag(topic, group, 0, Map.of(), false);
                }
                throw e;
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            description
                    .partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(
                            latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all()
                    .get(wait, TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(wait, TimeUnit.MILLISECONDS);
            Map<Integer, Long> partitions = new TreeMap<>();
            long total = 0;
            boolean anyCommitted = false;
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end : ends.entrySet()) {
                OffsetAndMetadata done = committed.get(end.getKey());
                anyCommitted |= done != null;
                long lag = Math.max(0, end.getValue().offset() - (done == null ? 0 : done.offset()));
                partitions.put(end.getKey().partition(), lag);
                total += lag;
            }
            return new Lag(topic, group, total, partitions, anyCommitted);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring the lag of " + group + " on " + topic, e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot measure the lag of " + group + " on " + topic + ": " + e.getMessage(), e);
        }
    }
}
