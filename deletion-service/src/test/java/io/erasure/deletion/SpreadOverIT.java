package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.erasure.model.task.SpreadWindow;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run spread over a window ({@code spreadOver}) is paced to end near the window's end, on real engines; a run of
 * the same store without one, published behind it, is not held back by its waits.
 */
class SpreadOverIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));
    private static final Duration WINDOW = Duration.ofSeconds(20);
    private static final int ROWS = 300;
    private static final int KEYS_PER_TASK = 50;

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Test
    void aSpreadRunEndsNearItsWindowsEndAndARunWithoutOneIsNotHeldBackByIt() throws Exception {
        String schema = "s" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        DatasetSpec spread =
                table(schema, "spread").toBuilder().spreadOver(WINDOW).build();
        DatasetSpec plain = table(schema, "plain");
        RunId spreadRun = RunId.random();
        RunId plainRun = RunId.random();

        Instant start = Instant.now();
        SpreadWindow window = SpreadWindow.of(start, WINDOW, ROWS);
        for (DeletionTask task : runs.authorize(tasks(spreadRun, spread))) {
            publish(task.withSpread(window));
        }
        for (DeletionTask task : runs.authorize(tasks(plainRun, plain))) {
            publish(task);
        }

        List<EventEnvelope> plainBatches = completed(plainRun, ROWS / KEYS_PER_TASK);
        List<EventEnvelope> spreadBatches = completed(spreadRun, ROWS / KEYS_PER_TASK);

        assertThat(rows(schema, "plain")).isZero();
        assertThat(rows(schema, "spread")).isZero();
        assertThat(deleted(plainBatches)).isEqualTo(ROWS);
        assertThat(deleted(spreadBatches)).isEqualTo(ROWS);
        assertThat(jdbc.queryForObject(
                        "SELECT keys_done FROM spread_progress WHERE run_id = ?", Long.class, spreadRun.value()))
                .as("the fleet's progress the pace is computed on")
                .isEqualTo(ROWS);

        List<Instant> spreadTimes = times(spreadBatches);
        assertThat(spreadTimes.get(spreadTimes.size() - 1))
                .as("the spread run ends no earlier than most of its window")
                .isAfterOrEqualTo(start.plus(WINDOW.multipliedBy(3).dividedBy(4)));
        assertThat(spreadTimes.stream()
                        .filter(t -> t.isBefore(start.plus(WINDOW.dividedBy(4))))
                        .count())
                .as("its batches are spread across the window, not done in its first quarter")
                .isLessThanOrEqualTo(2);
        assertThat(spreadTimes.stream()
                        .filter(t -> t.isBefore(start.plus(WINDOW.dividedBy(2))))
                        .count())
                .as("nor in its first half")
                .isLessThanOrEqualTo(ROWS / KEYS_PER_TASK / 2 + 1);
        List<Instant> plainTimes = times(plainBatches);
        assertThat(plainTimes.get(plainTimes.size() - 1))
                .as("the run without a window, published behind the spread one, is done before half of it")
                .isBefore(spreadTimes.get(spreadTimes.size() / 2));
    }

    private List<DeletionTask> tasks(RunId run, DatasetSpec spec) {
        List<DeletionTask> tasks = new ArrayList<>();
        for (long from = 1; from <= ROWS; from += KEYS_PER_TASK) {
            List<Map<String, Object>> keys = LongStream.range(from, from + KEYS_PER_TASK)
                    .mapToObj(id -> Map.<String, Object>of("id", id))
                    .toList();
            tasks.add(DeletionTask.forRun(run, spec, keys, CUTOFF));
        }
        return tasks;
    }

    private DatasetSpec table(String schema, String table) {
        jdbc.execute(
                "CREATE TABLE " + schema + "." + table + " (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        jdbc.update(
                "INSERT INTO " + schema + "." + table + " SELECT g, ? FROM generate_series(1, ?) g",
                Timestamp.from(NOW.minus(Duration.ofDays(3))),
                ROWS);
        String name = schema + "-" + table;
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(schema)
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("demo-team")
                .build();
    }

    private long rows(String schema, String table) {
        return jdbc.queryForObject("SELECT count(*) FROM " + schema + "." + table, Long.class);
    }

    private void publish(DeletionTask task) throws Exception {
        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);
    }

    /** Each batch's first report (a poll handed back and delivered again reports a done batch once more). */
    private List<EventEnvelope> completed(RunId run, int batches) {
        Map<String, EventEnvelope> first = new TreeMap<>();
        TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> run.value().equals(e.runId()) && e.payload() instanceof BatchCompleted,
                        batches,
                        Duration.ofSeconds(90))
                .forEach(e -> first.merge(
                        ((BatchCompleted) e.payload()).batchId(),
                        e,
                        (a, b) -> a.occurredAt().isBefore(b.occurredAt()) ? a : b));
        assertThat(first).as("batches of run " + run).hasSize(batches);
        return List.copyOf(first.values());
    }

    private static long deleted(List<EventEnvelope> batches) {
        return batches.stream()
                .mapToLong(e -> ((BatchCompleted) e.payload()).counts().deleted())
                .sum();
    }

    private static List<Instant> times(List<EventEnvelope> batches) {
        return batches.stream()
                .map(EventEnvelope::occurredAt)
                .sorted(Comparator.naturalOrder())
                .toList();
    }
}
