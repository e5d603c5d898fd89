package io.erasure.deletion.log;

import io.erasure.model.contract.Topics;
import io.erasure.support.kafka.ConsumerGroupLag;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * The datasets with a dead letter nobody resolved yet: the records of {@link Topics#DELETION_LOG_DEAD_LETTER} after the
 * offsets committed by {@link Topics#DEAD_LETTERS_RESOLVED_GROUP} (from the start when it committed none), by their
 * {@link Topics#DEAD_LETTER_DATASET} header ({@code global}: every dataset). The dead-letter topic is the state, so
 * every replica sees the same, and nothing is read while it holds no unresolved record (the usual case).
 */
final class DeadLetterGate {

    private final Admin admin;
    private final Supplier<Consumer<String, String>> readers;
    private final String resolvedGroup;
    private final Duration timeout;

    DeadLetterGate(Admin admin, Supplier<Consumer<String, String>> readers, String resolvedGroup, Duration timeout) {
        this.admin = admin;
        this.readers = readers;
        this.resolvedGroup = resolvedGroup;
        this.timeout = timeout;
    }

    /** @throws IllegalStateException if they cannot be read (the gate then holds every dataset) */
    Set<String> blockedDatasets() {
        ConsumerGroupLag.Lag unresolved =
                ConsumerGroupLag.measure(admin, Topics.DELETION_LOG_DEAD_LETTER, resolvedGroup, timeout);
        if (unresolved.total() == 0) {
            return Set.of();
        }
        try {
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            unresolved
                    .partitions()
                    .keySet()
                    .forEach(p -> earliest.put(
                            new TopicPartition(Topics.DELETION_LOG_DEAD_LETTER, p), OffsetSpec.earliest()));
            Map<TopicPartition, Long> from = new HashMap<>();
            admin.listOffsets(earliest)
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((partition, info) -> from.put(partition, info.offset()));
            Map<TopicPartition, OffsetAndMetadata> resolved = admin.listConsumerGroupOffsets(resolvedGroup)
                    .partitionsToOffsetAndMetadata()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            resolved.forEach((partition, offset) -> {
                if (offset != null && from.containsKey(partition)) {
                    from.put(partition, Math.max(from.get(partition), offset.offset()));
                }
            });
            return read(from);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + Topics.DELETION_LOG_DEAD_LETTER, e);
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot read the unresolved dead letters of " + Topics.DELETION_LOG_DEAD_LETTER + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private Set<String> read(Map<TopicPartition, Long> from) {
        Set<String> datasets = new HashSet<>();
        try (Consumer<String, String> consumer = readers.get()) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            Map<TopicPartition, Long> ends = consumer.endOffsets(from.keySet(), timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (from.keySet().stream().anyMatch(p -> consumer.position(p, timeout) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading the unresolved dead letters of "
                            + Topics.DELETION_LOG_DEAD_LETTER + " took longer than " + timeout);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < ends.get(new TopicPartition(record.topic(), record.partition()))) {
                        Header dataset = record.headers().lastHeader(Topics.DEAD_LETTER_DATASET);
                        datasets.add(
                                dataset == null
                                        ? Topics.CONTROL_GLOBAL_KEY
                                        : new String(dataset.value(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return datasets;
    }
}
