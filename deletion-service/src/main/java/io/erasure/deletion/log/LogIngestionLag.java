package io.erasure.deletion.log;

import io.erasure.model.contract.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far the deletion-log service is behind the log topic (records not yet ingested). Deletion pauses
 * while this exceeds the threshold, so the 30-day log never falls far behind what was deleted.
 */
public class LogIngestionLag {

    private static final Logger log = LoggerFactory.getLogger(LogIngestionLag.class);

    private final Admin admin;
    private final String ingestGroup;
    private final long threshold;
    private final Duration cacheFor;
    private volatile long lastLag;
    private volatile long measuredAt;

    public LogIngestionLag(Admin admin, String ingestGroup, long threshold, Duration cacheFor) {
        this.admin = admin;
        this.ingestGroup = ingestGroup;
        this.threshold = threshold;
        this.cacheFor = cacheFor;
    }

    /** Records of the log topic the ingest group has not committed yet. */
    public synchronized long lag() {
        if (System.nanoTime() - measuredAt < cacheFor.toNanos()) {
            return lastLag;
        }
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(ingestGroup)
                    .partitionsToOffsetAndMetadata().get();
            // every partition counts: one the ingest group never committed is behind by all it holds
            Map<TopicPartition, OffsetSpec> latest = admin.describeTopics(java.util.List.of(Topics.DELETION_LOG))
                    .allTopicNames().get().get(Topics.DELETION_LOG).partitions().stream()
                    .map(p -> new TopicPartition(Topics.DELETION_LOG, p.partition()))
                    .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
            long lag = 0;
            if (!latest.isEmpty()) {
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
                for (var end : ends.entrySet()) {
                    OffsetAndMetadata done = committed.get(end.getKey());
                    lag += Math.max(0, end.getValue().offset() - (done == null ? 0 : done.offset()));
                }
            }
            lastLag = lag;
        } catch (Exception e) {
            log.warn("could not measure deletion-log ingestion lag: {}", e.toString());
        }
        measuredAt = System.nanoTime();
        return lastLag;
    }

    public boolean tooFarBehind() {
        return lag() > threshold;
    }
}
