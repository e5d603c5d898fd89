package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.core.KafkaTemplate;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * A row whose JSON is under a million characters but over a megabyte in UTF-8 (CJK text: 3 bytes a character) is kept
 * under {@code retained/} in S3 and its batch completes, instead of being refused by Kafka and retried for ever.
 */
class LargeRowIT extends DeletionTestSupport {

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

    @Test
    void aCjkRowOfHalfAMillionCharactersIsRetainedInS3AndItsBatchCompletes() {
        String schema = "large" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        String text = "削除".repeat(250_000);
        assertThat(text.getBytes(StandardCharsets.UTF_8).length)
                .as("over Kafka's 1 MB request")
                .isGreaterThan(1_400_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute("CREATE TABLE " + schema
                + ".notes (id bigint PRIMARY KEY, body text, updated_at timestamptz NOT NULL)");
        jdbc.update(
                "INSERT INTO " + schema + ".notes VALUES (1, ?, ?), (2, 'small', ?)",
                text,
                Timestamp.from(NOW.minus(Duration.ofDays(10))),
                Timestamp.from(NOW.minus(Duration.ofDays(10))));
        DatasetSpec spec = DatasetSpec.builder()
                .name(schema + "-notes")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(schema)
                .table("notes")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(schema + "-notes", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("demo-team")
                .build();
        DeletionTask task =
                DeletionTask.forRun(RunId.random(), spec, List.of(Map.of("id", 1L), Map.of("id", 2L)), CUTOFF);

        send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)));

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
        assertThat(jdbc.queryForList("SELECT id FROM " + schema + ".notes", Long.class))
                .isEmpty();

        DeletionRecord large = LoggedRecords.read(this::logged, task, 2).stream()
                .filter(r -> ((Number) r.primaryKey().get("id")).longValue() == 1)
                .findFirst()
                .orElseThrow();
        assertThat(large.retainedRef()).startsWith(S3Layout.retainedPrefix(spec.name()));
        assertThat(large.columns()).isEmpty();
        List<ColumnValue> retained = LoggedRecords.retainedColumns(sealedRecords.get(), s3, bucket, large);
        assertThat(retained)
                .filteredOn(c -> c.name().equals("body"))
                .singleElement()
                .satisfies(c -> assertThat(c.value()).isEqualTo(text));
    }

    private void send(String topic, String key, String value) {
        try {
            kafka.send(topic, key, value).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** How tests read the log topic and the retained rows. */
    static final class LoggedRecords {
        static List<DeletionRecord> read(Function<String, DeletionRecord> logged, DeletionTask task, int atLeast) {
            return TopicRecords.read(
                    LocalEngines.kafka().bootstrapServers(),
                    Topics.DELETION_LOG,
                    logged,
                    r -> task.runId().equals(r.runId()),
                    atLeast,
                    Duration.ofSeconds(30));
        }

        static List<ColumnValue> retainedColumns(
                SealedRecords sealed, S3Client s3, String bucket, DeletionRecord record) {
            return sealed.openRetained(s3.getObjectAsBytes(r -> r.bucket(bucket).key(record.retainedRef()))
                    .asByteArray());
        }
    }
}
