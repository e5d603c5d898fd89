package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletion.execution.Step;
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
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Forward deletion of a category ("a category is deleted upstream"): the whole subtree under it goes,
 * every row of it logged first, even when the consumer is killed mid-way and the task comes again.
 */
class ForwardTreeIT extends DeletionTestSupport {

    static final String DATASET = "forward-categories";
    private static final String SCHEMA = "forward_tree";
    private static final int DEPTH = 60;

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    private DatasetSpec spec;

    @BeforeEach
    void categoryTree() {
        jdbc.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        jdbc.execute("CREATE SCHEMA " + SCHEMA);
        jdbc.execute("CREATE TABLE " + SCHEMA + ".categories (id bigint PRIMARY KEY," + " parent_id bigint REFERENCES "
                + SCHEMA + ".categories (id), name text, updated_at timestamptz NOT NULL)");
        jdbc.execute("CREATE INDEX ON " + SCHEMA + ".categories (parent_id)");
        Timestamp old = Timestamp.from(Instant.now().minus(Duration.ofDays(3)));
        // a chain 1 <- 2 <- ... <- DEPTH, a side branch under 2, and an unrelated root 1000 with a child
        for (long id = 1; id <= DEPTH; id++) {
            jdbc.update(
                    "INSERT INTO " + SCHEMA + ".categories VALUES (?, ?, ?, ?)",
                    id,
                    id == 1 ? null : id - 1,
                    "category " + id,
                    old);
        }
        jdbc.update("INSERT INTO " + SCHEMA + ".categories VALUES (500, 2, 'side branch', ?)", old);
        jdbc.update(
                "INSERT INTO " + SCHEMA + ".categories VALUES (1000, NULL, 'other root', ?), (1001, 1000, 'kept', ?)",
                old,
                old);
        spec = DatasetSpec.builder()
                .name(DATASET)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(SCHEMA)
                .table("categories")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("categories")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(DATASET, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("catalog")
                .build();
    }

    @Test
    void aDeletedCategoryTakesItsWholeSubtreeEvenWhenTheConsumerIsKilledMidWay() throws Exception {
        String requestId = "req-category-1-" + System.nanoTime();
        DeletionTask task = DeletionTask.forward(
                requestId, spec, List.of(Map.of("id", 1L)), CutoffTimestamp.fromInstant(Instant.now()), 9);
        crashes.arm(Step.LOGGED, task.batchId(0));

        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);

        BatchCompleted batch = TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> e.payload() instanceof BatchCompleted b && requestId.equals(b.requestId()),
                        1,
                        Duration.ofSeconds(90))
                .stream()
                .map(e -> (BatchCompleted) e.payload())
                .findFirst()
                .orElseThrow();
        assertThat(batch.counts().deleted()).isEqualTo(1);
        assertThat(ids())
                .as("the subtree is gone, the other root and its child stay")
                .containsExactly(1000L, 1001L);
        List<DeletionRecord> logged = TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_LOG,
                this::logged,
                r -> requestId.equals(r.requestId()),
                DEPTH + 1,
                Duration.ofSeconds(60));
        assertThat(logged.stream().map(DeletionRecord::recordId).distinct())
                .as("every row of the subtree logged once, though the batch ran twice")
                .hasSize(DEPTH + 1);
        assertThat(logged).allSatisfy(r -> assertThat(r.cutoff()).isEqualTo(task.cutoff()));
    }

    private List<Long> ids() {
        return jdbc.queryForList("SELECT id FROM " + SCHEMA + ".categories ORDER BY id", Long.class);
    }
}
