package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletionlog.client.DatasetKeys;
import io.erasure.deletionlog.client.LogPurges;
import io.erasure.deletionlog.client.PayloadCipher;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.core.KafkaTemplate;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * Deleted rows leave the deletion service encrypted with their dataset's data key: nothing of a row is readable on
 * {@code erasure.deletion.log} (any Kafka client can read it for 7 days) or under {@code retained/} in S3.
 */
class EncryptedLogIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    S3Client s3;

    @Value("${erasure.s3.bucket}")
    String bucket;

    @Value("${erasure.deletion-log.master-key}")
    String masterKey;

    @Autowired
    CqlSession session;

    @Test
    void noColumnValueOfADeletedRowIsInClearOnTheLogTopicOrInS3() throws Exception {
        String schema = "enc" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        String secret = "secret-" + UUID.randomUUID();
        long id = 7_654_321L;
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute("CREATE TABLE " + schema + ".people (id bigint PRIMARY KEY, email text, bio text,"
                + " updated_at timestamptz NOT NULL)");
        Timestamp old = Timestamp.from(NOW.minus(Duration.ofDays(10)));
        jdbc.update(
                "INSERT INTO " + schema + ".people VALUES (?, ?, ?, ?), (?, ?, ?, ?)",
                id,
                secret + "@example.com",
                "short",
                old,
                id + 1,
                "x-" + secret,
                "語".repeat(400_000) + secret,
                old);
        DatasetSpec spec = DatasetSpec.builder()
                .name(schema + "-people")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(schema)
                .table("people")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(schema + "-people", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("demo-team")
                .build();
        DeletionTask task =
                DeletionTask.forRun(RunId.random(), spec, List.of(Map.of("id", id), Map.of("id", id + 1)), CUTOFF);

        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);
        BatchCompleted batch = TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> task.runId().value().equals(e.runId()) && e.payload() instanceof BatchCompleted,
                        1,
                        Duration.ofSeconds(90))
                .stream()
                .map(e -> (BatchCompleted) e.payload())
                .findFirst()
                .orElseThrow();
        assertThat(batch.counts().deleted()).isEqualTo(2);

        List<ConsumerRecord<String, String>> messages = rawMessagesOf(spec.name());
        assertThat(messages)
                .as("the batch's two records, found by their dataset in clear")
                .hasSize(2);
        assertThat(messages).allSatisfy(message -> {
            assertThat(message.value())
                    .doesNotContain(secret)
                    .doesNotContain("語語語")
                    .doesNotContain("short")
                    .doesNotContain(Long.toString(id));
            assertThat(message.key()).doesNotContain(Long.toString(id));
        });
        List<String> retained = s3
                .listObjectsV2Paginator(r -> r.bucket(bucket).prefix(S3Layout.retainedPrefix(spec.name())))
                .contents()
                .stream()
                .map(o -> o.key())
                .toList();
        assertThat(retained).as("the large row's columns").hasSize(1);
        byte[] objectBytes =
                s3.getObjectAsBytes(r -> r.bucket(bucket).key(retained.get(0))).asByteArray();
        assertThat(new String(objectBytes, StandardCharsets.UTF_8))
                .doesNotContain(secret)
                .doesNotContain("語語語");

        // with the dataset's key, everything is there
        SealedRecords sealed = sealedRecords.get();
        assertThat(messages)
                .extracting(m ->
                        ((Number) sealed.openFromTopic(m.value()).primaryKey().get("id")).longValue())
                .containsExactlyInAnyOrder(id, id + 1);
        assertThat(messages)
                .extracting(m -> sealed.openFromTopic(m.value()).columns())
                .anySatisfy(columns -> assertThat(columns)
                        .anySatisfy(c -> assertThat(c.value()).isEqualTo(secret + "@example.com")));
        assertThat(sealed.openRetained(objectBytes))
                .anySatisfy(c -> assertThat(String.valueOf(c.value())).endsWith(secret));

        // a legal purge of the dataset's log drops its keys: every copy is unreadable at once
        Clock clock = Clock.systemUTC();
        new LogPurges(
                        session,
                        new DatasetKeys(session, PayloadCipher.masterKey(masterKey), clock),
                        clock,
                        Duration.ofDays(30))
                .purgeDataset(spec.name(), "operator", "court order");
        assertThat(messages)
                .allSatisfy(m -> assertThatThrownBy(() -> sealed.openFromTopic(m.value()))
                        .isInstanceOf(SealedRecords.KeyGone.class));
        assertThatThrownBy(() -> sealed.openRetained(objectBytes)).isInstanceOf(SealedRecords.KeyGone.class);
    }

    /** Every message on the log topic whose value names {@code dataset}, read with a plain consumer as anyone could. */
    static List<ConsumerRecord<String, String>> rawMessagesOf(String dataset) {
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        LocalEngines.kafka().bootstrapServers()),
                new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(Topics.DELETION_LOG, Duration.ofSeconds(10)).stream()
                            .map(p -> new TopicPartition(p.topic(), p.partition()))
                            .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.value() != null && record.value().contains("\"" + dataset + "\"")) {
                        found.add(record);
                    }
                }
            }
        }
        return found;
    }
}
