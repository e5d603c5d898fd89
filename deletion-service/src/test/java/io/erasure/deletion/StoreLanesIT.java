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
import io.erasure.model.task.SpreadWindow;
import io.erasure.support.tasks.DeletionTaskPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * One store never holds back another: with {@code pg-gated} unreachable, a task of it sits in the same task
 * partition ahead of tasks of {@code pg-main}, and those still complete while the gate stays cut. Each lane reads only
 * its own tasks when their headers name their store; tasks without headers are read by every lane, and one that cannot
 * be read is reported once. A task whose headers name another lane than its own is skipped by the lane they name.
 */
class StoreLanesIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    DeletionTaskPublisher publisher;

    @Autowired
    MeterRegistry meters;

    @Value("${erasure.topics.task-partitions:8}")
    int partitions;

    @AfterEach
    void reopen() throws Exception {
        GATE.open();
    }

    @Test
    void aStalledStoreHoldsBackOnlyItsOwnTasks() throws Exception {
        String schema = "l" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute("CREATE TABLE " + schema + ".stalled (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        jdbc.update("INSERT INTO " + schema + ".stalled VALUES (1, ?)", Timestamp.from(NOW.minus(Duration.ofDays(3))));
        DeletionTask stalled = DeletionTask.forRun(
                RunId.random(), spec(schema, "stalled", "pg-gated"), List.of(Map.of("id", 1L)), CUTOFF);
        int partition = partitionOf(Topics.taskKey(stalled));
        // tasks of pg-main datasets whose keys land in the stalled task's partition, behind it
        List<DeletionTask> behind = new ArrayList<>();
        for (int i = 0; behind.size() < 4; i++) {
            String table = "live_" + i;
            DeletionTask candidate = DeletionTask.forRun(
                    RunId.random(), spec(schema, table, "pg-main"), List.of(Map.of("id", 1L)), CUTOFF);
            if (partitionOf(Topics.taskKey(candidate)) == partition) {
                jdbc.execute("CREATE TABLE " + schema + "." + table
                        + " (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
                jdbc.update(
                        "INSERT INTO " + schema + "." + table + " VALUES (1, ?)",
                        Timestamp.from(NOW.minus(Duration.ofDays(3))));
                behind.add(candidate);
            }
        }
        GATE.cut();

        publish(stalled);
        for (DeletionTask task : behind) {
            publish(task);
        }

        for (DeletionTask task : behind) {
            assertThat(completed(task, 1))
                    .as("a pg-main task behind the stalled store's")
                    .singleElement()
                    .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(1));
            assertThat(jdbc.queryForObject(
                            "SELECT count(*) FROM " + schema + "." + task.spec().table(), Long.class))
                    .isZero();
        }
        assertThat(completed(stalled, 0)).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM " + schema + ".stalled", Long.class))
                .isEqualTo(1);

        GATE.open();
        // the stalled lane resumes at its next back-off (doubling up to a minute while the store was gone)
        // (a delete whose answer the gate cut is retried and then finds the row gone: counted as already absent)
        assertThat(completed(stalled, 1, Duration.ofSeconds(150)))
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted() + b.counts().alreadyAbsent())
                        .as(b.toString())
                        .isEqualTo(1));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM " + schema + ".stalled", Long.class))
                .isZero();
    }

    @Test
    void aTaskWithItsStoreInTheHeadersIsReadByItsLaneOnly() throws Exception {
        DeletionTask task = liveTask("headers");

        publisher.publish(List.of(authorized(task)));

        assertThat(completed(task, 1))
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(1));
        assertThat(reads.readBy(Topics.taskKey(task)))
                .as("lanes that read the task")
                .containsExactly("deletion-lane-pg-main");
    }

    @Test
    void aTaskOfASpreadRunWithHeadersIsReadByItsStoresPacedLaneOnly() throws Exception {
        DeletionTask plain = liveTask("paced");
        DeletionTask task = DeletionTask.forRun(
                        plain.runId(),
                        plain.spec().toBuilder()
                                .spreadOver(Duration.ofSeconds(10))
                                .build(),
                        plain.keys(),
                        CUTOFF)
                .withSpread(SpreadWindow.of(Instant.now(), Duration.ofSeconds(10), 1));

        publisher.publish(List.of(authorized(task)));

        assertThat(completed(task, 1))
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(1));
        assertThat(reads.readBy(Topics.taskKey(task)))
                .as("lanes that read the task")
                .containsExactly("deletion-lane-pg-main-paced");
    }

    @Test
    void aTaskWithoutHeadersFromAnOlderPublisherIsReadByEveryLaneAndStillRuns() throws Exception {
        DeletionTask task = liveTask("no_headers");

        publish(task); // a plain message, as published before the headers existed

        assertThat(completed(task, 1))
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(1));
        assertThat(reads.readBy(Topics.taskKey(task)))
                .as("lanes that read the task")
                .contains(
                        "deletion-lane-pg-main",
                        "deletion-lane-pg-main-paced",
                        "deletion-lane-unconfigured",
                        "deletion-lane-pg-gated");
    }

    @Test
    void aCopyOfATaskWithOtherHeadersIsSkippedAndOnlyItsOwnLaneRunsItOnce() throws Exception {
        DeletionTask plain = liveTask("misrouted");
        DeletionTask task = authorized(DeletionTask.forRun(
                        plain.runId(),
                        plain.spec().toBuilder()
                                .spreadOver(Duration.ofSeconds(10))
                                .build(),
                        plain.keys(),
                        CUTOFF)
                .withSpread(SpreadWindow.of(Instant.now(), Duration.ofSeconds(10), 1)));
        double unpacedBefore = misrouted("deletion-lane-pg-main");
        double otherStoreBefore = misrouted("deletion-lane-pg-gated-paced");

        // the genuine task of a spread run, copied with headers that would run it unpaced, or in another store's lane
        sendWithHeaders(task, Map.of(Topics.TASK_STORE, "pg-main"));
        sendWithHeaders(task, Map.of(Topics.TASK_STORE, "pg-gated", Topics.TASK_PACED, "true"));

        await("both copies skipped")
                .atMost(Duration.ofSeconds(30))
                .until(() -> misrouted("deletion-lane-pg-main") != unpacedBefore
                        && misrouted("deletion-lane-pg-gated-paced") != otherStoreBefore);
        assertThat(misrouted("deletion-lane-pg-main"))
                .as("skipped by the unpaced lane")
                .isEqualTo(unpacedBefore + 1);
        assertThat(misrouted("deletion-lane-pg-gated-paced"))
                .as("skipped by the other store's lane")
                .isEqualTo(otherStoreBefore + 1);
        assertThat(completed(task, 0)).as("run by no lane").isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM " + task.spec().namespace() + ".misrouted", Long.class))
                .isEqualTo(1);

        publisher.publish(List.of(task)); // the genuine message, with the headers its publisher gives it

        assertThat(completed(task, 1))
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(1));
        assertThat(reads.readBy(Topics.taskKey(task)))
                .as("lanes that read the task's messages")
                .containsExactlyInAnyOrder(
                        "deletion-lane-pg-main", "deletion-lane-pg-gated-paced", "deletion-lane-pg-main-paced");
        assertThat(misrouted("deletion-lane-pg-main-paced"))
                .as("the genuine message is not misrouted")
                .isZero();
    }

    private double misrouted(String lane) {
        var counter = meters.find("erasure.deletion.tasks.misrouted")
                .tag("lane", lane)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private void sendWithHeaders(DeletionTask task, Map<String, String> headers) throws Exception {
        ProducerRecord<String, String> message =
                new ProducerRecord<>(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(task));
        headers.forEach((name, value) -> message.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
        kafka.send(message).get(10, TimeUnit.SECONDS);
    }

    @Test
    void anUnreadableTaskIsReportedByOneLaneOnly() throws Exception {
        String withoutHeaders = "unreadable-" + UUID.randomUUID();
        String withHeaders = "unreadable-" + UUID.randomUUID();
        ProducerRecord<String, String> named = new ProducerRecord<>(Topics.DELETION_TASKS, withHeaders, "{not a task");
        named.headers().add(Topics.TASK_STORE, "pg-main".getBytes(StandardCharsets.UTF_8));
        double before = unreadableCount();

        kafka.send(Topics.DELETION_TASKS, withoutHeaders, "{not a task").get(10, TimeUnit.SECONDS);
        kafka.send(named).get(10, TimeUnit.SECONDS);

        await("both messages reported unreadable")
                .atMost(Duration.ofSeconds(30))
                .until(() -> !reads.reportedUnreadableBy(withoutHeaders).isEmpty()
                        && !reads.reportedUnreadableBy(withHeaders).isEmpty());
        // every lane has had its look, and none but the one expected reports either message (reports only ever add up,
        // so a second report breaks the condition for good)
        await("each message reported by its one lane only, for 3 s")
                .during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(15))
                .until(() -> reads.readBy(withoutHeaders).size() > 2
                        && reads.reportedUnreadableBy(withoutHeaders).equals(List.of("deletion-lane-unconfigured"))
                        && reads.reportedUnreadableBy(withHeaders).equals(List.of("deletion-lane-pg-main"))
                        && unreadableCount() - before == 2);
        assertThat(reads.readBy(withoutHeaders))
                .as("without headers every lane reads it")
                .hasSizeGreaterThan(2);
        assertThat(reads.reportedUnreadableBy(withoutHeaders)).containsExactly("deletion-lane-unconfigured");
        assertThat(reads.readBy(withHeaders)).containsExactly("deletion-lane-pg-main");
        assertThat(reads.reportedUnreadableBy(withHeaders)).containsExactly("deletion-lane-pg-main");
        assertThat(unreadableCount() - before).isEqualTo(2);
    }

    private double unreadableCount() {
        return meters.counter("erasure.deletion.tasks.unreadable").count();
    }

    /** A task deleting the one row of a fresh pg-main table. */
    private DeletionTask liveTask(String table) {
        String schema = "h" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute(
                "CREATE TABLE " + schema + "." + table + " (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        jdbc.update(
                "INSERT INTO " + schema + "." + table + " VALUES (1, ?)",
                Timestamp.from(NOW.minus(Duration.ofDays(3))));
        return DeletionTask.forRun(RunId.random(), spec(schema, table, "pg-main"), List.of(Map.of("id", 1L)), CUTOFF);
    }

    private int partitionOf(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    private static DatasetSpec spec(String schema, String table, String connection) {
        String name = schema + "-" + table.replace('_', '-');
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef(connection)
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

    private void publish(DeletionTask task) throws Exception {
        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);
    }

    private List<BatchCompleted> completed(DeletionTask task, int atLeast) {
        return completed(task, atLeast, Duration.ofSeconds(atLeast == 0 ? 3 : 60));
    }

    private List<BatchCompleted> completed(DeletionTask task, int atLeast, Duration within) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> task.runId().value().equals(e.runId()) && e.payload() instanceof BatchCompleted,
                        atLeast,
                        within)
                .stream()
                .map(e -> (BatchCompleted) e.payload())
                .toList();
    }
}
