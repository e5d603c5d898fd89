package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/** The target store is unreachable when a task arrives: deletion backs off, then completes once it is back. */
class StoreOutageIT extends DeletionTestSupport {

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @AfterEach
    void reopen() throws Exception {
        GATE.open();
    }

    @Test
    void aStoreOutageLeadsToBackoffThenCompletion() throws Exception {
        GATE.cut();
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS outage");
        jdbc.execute("DROP TABLE IF EXISTS outage.profiles");
        jdbc.execute(
                "CREATE TABLE outage.profiles (id bigint PRIMARY KEY, name text, updated_at timestamptz NOT NULL)");
        for (long id = 1; id <= 3; id++) {
            jdbc.update(
                    "INSERT INTO outage.profiles VALUES (?, ?, ?)",
                    id,
                    "n" + id,
                    Timestamp.from(Instant.now().minusSeconds(86_400)));
        }
        DatasetSpec spec = DatasetSpec.builder()
                .name("outage-profiles")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-gated")
                .namespace("outage")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("outage-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("demo-team")
                .build();
        DeletionTask task = DeletionTask.forRun(
                RunId.random(),
                spec,
                List.of(Map.of("id", 1L), Map.of("id", 2L)),
                CutoffTimestamp.fromInstant(Instant.now().minusSeconds(60)));

        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);
        // while the store is unreachable nothing is deleted (once a row is gone it stays gone: this cannot recover)
        await("every row kept for 4 s")
                .during(Duration.ofSeconds(4))
                .atMost(Duration.ofSeconds(10))
                .until(() -> jdbc.queryForList("SELECT id FROM outage.profiles ORDER BY id", Long.class)
                        .equals(List.of(1L, 2L, 3L)));
        assertThat(completed(task, 0)).isEmpty();

        GATE.open();

        assertThat(completed(task, 1))
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(2));
        assertThat(jdbc.queryForList("SELECT id FROM outage.profiles ORDER BY id", Long.class))
                .containsExactly(3L);
    }

    private List<BatchCompleted> completed(DeletionTask task, int atLeast) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> task.runId().value().equals(e.runId()) && e.payload() instanceof BatchCompleted,
                        atLeast,
                        Duration.ofSeconds(atLeast == 0 ? 3 : 90))
                .stream()
                .map(e -> (BatchCompleted) e.payload())
                .toList();
    }
}
