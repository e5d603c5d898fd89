package io.erasure.deletion.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.process.FreePorts;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The ingestion gate fails closed: a lag it cannot measure holds deletion like a lag too far behind. */
class LogIngestionLagIT {

    @Test
    void anUnreachableBrokerCountsAsTooFarBehind() {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + FreePorts.next(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2_000))) {
            LogIngestionLag lag = new LogIngestionLag(admin, "deletion-log-service", 100_000, Duration.ZERO);

            assertThat(lag.tooFarBehind())
                    .as("lag unknown: the brokers do not answer")
                    .isTrue();
        }
    }

    @Test
    void aGroupThatNeverCommittedOnALogWithRecordsCountsAsTooFarBehind() throws Exception {
        publishRecord();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, LocalEngines.kafka().bootstrapServers()))) {
            LogIngestionLag lag =
                    new LogIngestionLag(admin, "no-such-group-" + UUID.randomUUID(), 100_000, Duration.ZERO);

            assertThat(lag.tooFarBehind())
                    .as("nothing ingests the log: its group never committed")
                    .isTrue();
        }
    }

    @Test
    void aDatasetWithAnUnresolvedDeadLetterIsHeldUntilItIsResolved() throws Exception {
        String blocked = "dead-" + UUID.randomUUID().toString().substring(0, 8);
        String other = "alive-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, LocalEngines.kafka().bootstrapServers()))) {
            String ingestGroup = "ingest-" + UUID.randomUUID();
            publishRecord();
            commitToEnd(admin, ingestGroup, Topics.DELETION_LOG);
            LogIngestionLag lag =
                    new LogIngestionLag(admin, LogIngestionLagIT::reader, ingestGroup, 100_000, Duration.ZERO);
            try {
                publish(
                        Topics.DELETION_LOG_DEAD_LETTER,
                        blocked + "|{\"id\":1}",
                        "not json",
                        Map.of(Topics.DEAD_LETTER_DATASET, blocked));

                assertThat(lag.tooFarBehind(blocked))
                        .as("the dataset of the dead letter")
                        .isTrue();
                assertThat(lag.why(blocked)).contains(blocked, Topics.DELETION_LOG_DEAD_LETTER);
                assertThat(lag.tooFarBehind(other)).as("another dataset").isFalse();
                assertThat(lag.tooFarBehind(other + "--cache", blocked))
                        .as("a copy of the blocked dataset")
                        .isTrue();

                publish(Topics.DELETION_LOG_DEAD_LETTER, "garbage", "not json", Map.of());
                assertThat(lag.tooFarBehind(other))
                        .as("a dead letter of an unknown dataset holds every dataset")
                        .isTrue();

                commitToEnd(admin, Topics.DEAD_LETTERS_RESOLVED_GROUP, Topics.DELETION_LOG_DEAD_LETTER);
                assertThat(lag.tooFarBehind(blocked))
                        .as("resolved: the operator moved the group past them")
                        .isFalse();
                assertThat(lag.tooFarBehind(other)).isFalse();
            } finally {
                // no other test of this JVM may be held by these dead letters
                commitToEnd(admin, Topics.DEAD_LETTERS_RESOLVED_GROUP, Topics.DELETION_LOG_DEAD_LETTER);
            }
        }
    }

    private static Consumer<String, String> reader() {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        LocalEngines.kafka().bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new StringDeserializer());
    }

    /** What an operator does once the dead letters are dealt with: the group's offsets moved to the topic's end. */
    private static void commitToEnd(Admin admin, String group, String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(topic)
                .partitions()
                .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
        admin.listOffsets(latest)
                .all()
                .get(10, TimeUnit.SECONDS)
                .forEach((partition, info) -> ends.put(partition, new OffsetAndMetadata(info.offset())));
        admin.alterConsumerGroupOffsets(group, ends).all().get(10, TimeUnit.SECONDS);
    }

    /** A well-formed record (other tests of this JVM read the log topic as records). */
    private static void publishRecord() throws Exception {
        Instant now = Instant.now();
        Map<String, Object> key = Map.of("id", 1L);
        DeletionRecord record = new DeletionRecord(
                DeletionRecord.recordIdFor("run-lag", "lag-test", key),
                "lag-test",
                key,
                List.of(ColumnValue.of("id", 1L)),
                CutoffTimestamp.fromInstant(now.minusSeconds(60)),
                RunId.of("run-lag"),
                null,
                "task-1",
                "batch-1",
                now,
                null);
        publish(
                Topics.DELETION_LOG,
                Topics.logKey(record),
                JsonMapper.builder().build().writeValueAsString(record));
    }

    static void publish(String topic, String key, String value) throws Exception {
        publish(topic, key, value, Map.of());
    }

    static void publish(String topic, String key, String value, Map<String, String> headers) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        LocalEngines.kafka().bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                new StringSerializer())) {
            ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
            headers.forEach((name, header) -> record.headers().add(name, header.getBytes(StandardCharsets.UTF_8)));
            producer.send(record).get(30, TimeUnit.SECONDS);
        }
    }
}
