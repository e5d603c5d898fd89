package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletion.execution.Step;
import io.erasure.infra.CassandraEngine;
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
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A batch counts what its read-back finds: on Cassandra a row rewritten after the cut-off between the read for
 * the log and the delete rightly survives (last write wins), so it is kept as newer, not deleted.
 */
class ReadBackCountsIT extends DeletionTestSupport {

    private static final String KEYSPACE = "read_back_counts";
    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    private static CqlSession cassandra;

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @BeforeAll
    static void session() {
        CassandraEngine engine = LocalEngines.cassandra();
        cassandra = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(engine.host(), engine.port()))
                .withLocalDatacenter(engine.localDatacenter())
                .build();
        cassandra.execute("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void close() {
        cassandra.close();
    }

    @Test
    void aRowRewrittenBetweenTheReadAndTheDeleteCountsAsKeptNotDeleted() throws Exception {
        String table = "profiles_" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        cassandra.execute("CREATE TABLE " + KEYSPACE + "." + table + " (id bigint PRIMARY KEY, name text)");
        long written = CutoffTimestamp.toMicros(NOW.minus(Duration.ofDays(2)));
        for (long id = 1; id <= 4; id++) {
            cassandra.execute(cassandra
                    .prepare("INSERT INTO " + KEYSPACE + "." + table + " (id, name) VALUES (?, ?)"
                            + " USING TIMESTAMP ?")
                    .bind(id, "old-" + id, written));
        }
        String name = "rbc-" + table.replace('_', '-');
        DatasetSpec spec = DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cass-main")
                .namespace(KEYSPACE)
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("demo-team")
                .build();
        DeletionTask task = DeletionTask.forRun(RunId.random(), spec, keysOf(1, 2, 3), CUTOFF);
        // the owner's service writes row 2 again (now, after the cut-off) once its record is logged
        crashes.runAfter(
                Step.LOGGED,
                task.batchId(0),
                () -> cassandra.execute("INSERT INTO " + KEYSPACE + "." + table + " (id, name) VALUES (2, 'new-2')"));

        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);

        BatchCompleted batch = completed(task);
        assertThat(cassandra
                        .execute("SELECT name FROM " + KEYSPACE + "." + table + " WHERE id = 2")
                        .one()
                        .getString("name"))
                .isEqualTo("new-2");
        assertThat(cassandra.execute("SELECT id FROM " + KEYSPACE + "." + table).all())
                .extracting(r -> r.getLong("id"))
                .containsExactlyInAnyOrder(2L, 4L);
        assertThat(batch.counts().deleted()).as("rows really gone").isEqualTo(2);
        assertThat(batch.counts().skippedNewer())
                .as("the row rewritten after the cut-off")
                .isEqualTo(1);
        assertThat(batch.counts().failed()).isZero();
        assertThat(batch.readBack()).isEqualTo(ReadBackResult.CLEAN);
        assertThat(batch.keysDigest()).isEqualTo(CanonicalKey.digestOf(keysOf(1, 3)));
        // row 2's record is published again, marked: the log says its delete did not apply
        List<DeletionRecord> records = TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_LOG,
                this::logged,
                r -> task.runId().equals(r.runId()),
                4,
                Duration.ofSeconds(30));
        assertThat(records)
                .filteredOn(DeletionRecord::keptNewer)
                .singleElement()
                .satisfies(r -> assertThat(((Number) r.primaryKey().get("id")).longValue())
                        .isEqualTo(2L));
        assertThat(records)
                .filteredOn(r -> !r.keptNewer())
                .extracting(r -> ((Number) r.primaryKey().get("id")).longValue())
                .containsExactlyInAnyOrder(1L, 2L, 3L);
    }

    private static List<Map<String, Object>> keysOf(long... ids) {
        return LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    private BatchCompleted completed(DeletionTask task) {
        return TopicRecords.read(
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
    }
}
