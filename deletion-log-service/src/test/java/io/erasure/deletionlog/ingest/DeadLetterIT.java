package io.erasure.deletionlog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletionlog.DeletionLogTestSupport;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.Topics;
import io.erasure.model.record.DeletionRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A record on the log topic that can never be stored is not committed away: it lands on the dead-letter topic, with
 * its dataset, before the offsets past it are committed, and the records after it are still stored.
 */
class DeadLetterIT extends DeletionLogTestSupport {

    private static final Instant DELETED_AT =
            Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(1, ChronoUnit.HOURS);

    @Test
    void anUnreadableRecordLandsOnTheDeadLetterTopicWithItsDataset() {
        String dataset = unique("dead");
        String run = unique("run");
        String marker = "unreadable-" + UUID.randomUUID();
        // a record of a known dataset that is not a deletion record (no record id, no columns), then garbage
        publish(dataset + "|{\"id\":1}", "{\"dataset\":\"" + dataset + "\",\"note\":\"" + marker + "\"}");
        publish("not-a-key", "not json " + marker);
        DeletionRecord after = record(dataset, run, 2, DELETED_AT);
        publish(List.of(after));

        await(
                () -> get("viewer", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() == 1);
        List<ConsumerRecord<String, String>> dead = await(() -> deadLetters(marker), found -> found.size() == 2);

        assertThat(dead)
                .extracting(ConsumerRecord::value)
                .containsExactlyInAnyOrder(
                        "{\"dataset\":\"" + dataset + "\",\"note\":\"" + marker + "\"}", "not json " + marker);
        assertThat(dead)
                .extracting(r -> header(r, Topics.DEAD_LETTER_DATASET).orElse(null))
                .containsExactlyInAnyOrder(dataset, Topics.CONTROL_GLOBAL_KEY);
        assertThat(dead).allSatisfy(r -> {
            assertThat(header(r, Topics.DEAD_LETTER_REASON)).isPresent();
            assertThat(header(r, Topics.DEAD_LETTER_ORIGIN))
                    .hasValueSatisfying(origin -> assertThat(origin).startsWith(Topics.DELETION_LOG + "-"));
        });
    }

    /** The dead letters whose value contains {@code marker}, read from the start with a plain consumer. */
    static List<ConsumerRecord<String, String>> deadLetters(String marker) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        LocalEngines.kafka().bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(Topics.DELETION_LOG_DEAD_LETTER, Duration.ofSeconds(10)).stream()
                            .map(p -> new TopicPartition(p.topic(), p.partition()))
                            .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, String>> found = new ArrayList<>();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.value() != null && record.value().contains(marker)) {
                        found.add(record);
                    }
                }
            }
            return found;
        }
    }

    private static Optional<String> header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? Optional.empty() : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
    }
}
