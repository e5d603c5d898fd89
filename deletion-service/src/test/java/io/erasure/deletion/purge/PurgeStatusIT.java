package io.erasure.deletion.purge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletion.DeletionTestSupport;
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
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Base64;
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
 * "Deleted but still on disk": rows of a real Cassandra table ({@code gc_grace_seconds = 3600}) deleted through the
 * pipeline are reported by {@code GET /api/purge} as on disk until an hour after the last delete; a store that
 * does not track purges is left out, one that cannot be asked gets its reason instead of failing the list.
 */
class PurgeStatusIT extends DeletionTestSupport {

    private static final String KEYSPACE = "purge_display";
    private static final long GC_GRACE_SECONDS = 3600;
    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    private static CqlSession cassandra;

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    PurgeMetrics purgeMetrics;

    @Autowired
    MeterRegistry meters;

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
    void aCassandraDatasetIsStillOnDiskUntilGcGraceAfterItsLastDelete() throws Exception {
        DatasetSpec spec = cassandraTable();
        DeletionTask task = DeletionTask.forRun(RunId.random(), spec, keysOf(1, 2, 3), CUTOFF);
        Instant published = Instant.now();

        publish(task);

        BatchCompleted batch = completed(task);
        assertThat(batch.counts().deleted()).isEqualTo(3);
        assertThat(ids(spec)).containsExactly(4L, 5L);
        // the batch is recorded as processed right after it is reported
        OnDisk line = await().atMost(Duration.ofSeconds(30)).until(() -> line(spec.name()), l -> l != null);
        Instant lastDeletedAt = jdbc.queryForObject(
                        "SELECT max(first_processed_at) FROM deletion.processed_batches"
                                + " WHERE dataset = ? AND rows_deleted > 0",
                        OffsetDateTime.class,
                        spec.name())
                .toInstant();
        assertThat(line.error()).isNull();
        assertThat(line.table()).isEqualTo(KEYSPACE + "." + spec.table());
        assertThat(line.lastDeletedAt()).isEqualTo(lastDeletedAt).isAfter(published.minusSeconds(1));
        assertThat(line.gcGraceSeconds()).isEqualTo(GC_GRACE_SECONDS);
        assertThat(line.purgeableAt()).isEqualTo(lastDeletedAt.plusSeconds(GC_GRACE_SECONDS));
        assertThat(line.stillOnDisk()).isTrue();
        assertThat(line.explanation())
                .startsWith("not purgeable before " + lastDeletedAt.plusSeconds(GC_GRACE_SECONDS));

        purgeMetrics.refresh();

        assertThat(meters.get(PurgeMetrics.WAITING)
                        .tag("dataset", spec.name())
                        .gauge()
                        .value())
                .as("time to physical purge so far: from the last delete, the tombstones still within gc_grace")
                .isBetween(
                        0.0,
                        (double) Duration.between(lastDeletedAt, Instant.now()).toSeconds() + 1);
        assertThat(meters.get(PurgeMetrics.PAST_GRACE)
                        .tag("dataset", spec.name())
                        .gauge()
                        .value())
                .isZero();
    }

    @Test
    void aStoreWithoutPurgesIsLeftOutAndOneThatCannotBeAskedSaysWhy() throws Exception {
        DatasetSpec postgres = cassandraTable().toBuilder()
                .name("purge-pg-" + suffix())
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .build();
        DatasetSpec unknown = cassandraTable().toBuilder()
                .name("purge-gone-" + suffix())
                .connectionRef("cass-gone")
                .build();
        for (DatasetSpec spec : List.of(postgres, unknown)) {
            jdbc.update(
                    "INSERT INTO deletion.dataset_deletions (dataset, store_kind, spec)"
                            + " VALUES (?, ?, CAST(? AS jsonb))",
                    spec.name(),
                    spec.storeKind().name(),
                    json.writeValueAsString(spec));
            jdbc.update(
                    "INSERT INTO deletion.processed_batches (batch_id, scope_hash, run_id, dataset, rows_deleted)"
                            + " VALUES (?, 'scope', 'run', ?, 1)",
                    "batch-" + spec.name(),
                    spec.name());
        }

        List<OnDisk> lines = lines();

        assertThat(lines)
                .extracting(OnDisk::dataset)
                .doesNotContain(postgres.name())
                .contains(unknown.name());
        OnDisk failed = line(unknown.name());
        assertThat(failed.error()).contains("connection 'cass-gone' is not configured");
        assertThat(failed.stillOnDisk()).isNull();
        assertThat(failed.lastDeletedAt()).isNotNull();
    }

    private DatasetSpec cassandraTable() {
        String table = "events_" + suffix();
        cassandra.execute("CREATE TABLE " + KEYSPACE + "." + table + " (id bigint PRIMARY KEY, what text)"
                + " WITH gc_grace_seconds = " + GC_GRACE_SECONDS);
        long written = CutoffTimestamp.toMicros(NOW.minus(Duration.ofHours(2)));
        for (long id = 1; id <= 5; id++) {
            cassandra.execute(cassandra
                    .prepare("INSERT INTO " + KEYSPACE + "." + table + " (id, what) VALUES (?, 'login')"
                            + " USING TIMESTAMP ?")
                    .bind(id, written));
        }
        String name = "purge-" + table.replace('_', '-');
        return DatasetSpec.builder()
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
    }

    private static String suffix() {
        return Long.toString(Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000));
    }

    private static List<Map<String, Object>> keysOf(long... ids) {
        return LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    private List<Long> ids(DatasetSpec spec) {
        return cassandra.execute("SELECT id FROM " + KEYSPACE + "." + spec.table()).all().stream()
                .map(row -> row.getLong("id"))
                .sorted()
                .toList();
    }

    private void publish(DeletionTask task) throws Exception {
        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);
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

    private OnDisk line(String dataset) throws Exception {
        return lines().stream()
                .filter(l -> l.dataset().equals(dataset))
                .findFirst()
                .orElse(null);
    }

    private List<OnDisk> lines() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/purge"))
                                .header(
                                        "Authorization",
                                        "Basic "
                                                + Base64.getEncoder()
                                                        .encodeToString(
                                                                "viewer:viewer".getBytes(StandardCharsets.UTF_8)))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Arrays.asList(json.readValue(response.body(), OnDisk[].class));
    }
}
