package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.deletion.control.ControlState;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.SigningKey;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kill switches and cancellations govern every task of a dataset, its copies' included, and hold from the first
 * task a replica consumes.
 */
class KillSwitchIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    ControlState controlState;

    @Autowired
    MeterRegistry meters;

    private String schema;
    private DatasetSpec spec;

    @BeforeEach
    void liveTableWithACopy() {
        schema = "k" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        for (String table : List.of("profiles", "profiles_copy")) {
            jdbc.execute("CREATE TABLE " + schema + "." + table
                    + " (id bigint PRIMARY KEY, name text, updated_at timestamptz NOT NULL)");
            for (long id = 1; id <= 10; id++) {
                jdbc.update(
                        "INSERT INTO " + schema + "." + table + " VALUES (?, ?, ?)",
                        id,
                        "name-" + id,
                        Timestamp.from(NOW.minus(Duration.ofDays(10))));
            }
        }
        spec = DatasetSpec.builder()
                .name(schema + "-profiles")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(schema)
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(schema + "-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("demo-team")
                .copies(List.of(new DatasetCopy(
                        "profiles-copy",
                        StoreKind.POSTGRES,
                        "pg-main",
                        new CopyTarget.TableMapping(schema, "profiles_copy", Map.of("id", "id", "name", "name")))))
                .build();
    }

    @Test
    void aKillSwitchOnTheSourceDatasetStopsItsCopyTasks() {
        DeletionTask source = DeletionTask.forRun(RunId.random(), spec, keys(1, 2), CUTOFF);
        DeletionTask copyTask = DeletionTask.forCopy(source, spec.copies().get(0), keys(1, 2));
        control(ControlSignal.dataset(spec.name(), true, List.of(), "operator", "incident"));
        await().atMost(Duration.ofSeconds(30)).until(() -> switchedOff(spec.name()));

        publish(copyTask);

        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(10))
                .until(() -> ids("profiles_copy").containsAll(List.of(1L, 2L)));
        assertThat(completed(copyTask, 0)).isEmpty();

        control(ControlSignal.dataset(spec.name(), false, List.of(), "operator", "all clear"));
        assertThat(completed(copyTask, 1))
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(2));
        assertThat(ids("profiles_copy")).doesNotContain(1L, 2L).contains(3L);
    }

    @Test
    void aCopyTaskOfACancelledRunDeletesNothing() {
        RunId run = RunId.random();
        DeletionTask source = DeletionTask.forRun(run, spec, keys(3, 4), CUTOFF);
        DeletionTask copyTask = DeletionTask.forCopy(source, spec.copies().get(0), keys(3, 4));
        control(ControlSignal.dataset(spec.name(), false, List.of(run), "operator", "run cancelled"));
        await().atMost(Duration.ofSeconds(30)).until(() -> controlState.cancelled(spec.name(), run));

        publish(copyTask);
        // a task published after it, on the same dataset and store, shows the copy task was consumed and skipped
        DeletionTask later = DeletionTask.forRun(RunId.random(), spec, keys(9), CUTOFF);
        publish(later);

        completed(later, 1);
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(5))
                .until(() -> ids("profiles_copy").containsAll(List.of(3L, 4L)));
        assertThat(completed(copyTask, 0)).isEmpty();
    }

    /** Only the control plane lifts a switch: an unsigned or forged lift stops the scope, and lifts nothing. */
    @Test
    void aForgedLiftDoesNotLiftTheKillSwitch() {
        control(ControlSignal.dataset(spec.name(), true, List.of(), "operator", "incident"));
        await().atMost(Duration.ofSeconds(30)).until(() -> switchedOff(spec.name()));
        DeletionTask task = DeletionTask.forRun(RunId.random(), spec, keys(7, 8), CUTOFF);
        publish(task);
        double refusedBefore = refused();

        ControlSignal lift = ControlSignal.dataset(spec.name(), false, List.of(), "operator", "all clear");
        send(
                Topics.CONTROL,
                Topics.controlKey(lift),
                json.writeValueAsString(EventEnvelope.startChain(lift, null, Clock.systemUTC())));
        ControlSignal forged = lift.signed(
                Long.MAX_VALUE / 2,
                SigningKey.of(
                        "control-plane-local", "MC4CAQAwBQYDK2VwBCIEIEUHjKJq8tv3PnGRRnfIRcoUP/qVi14iPX4vPt+cJmxT"));
        send(
                Topics.CONTROL,
                Topics.controlKey(lift),
                json.writeValueAsString(EventEnvelope.startChain(forged, null, Clock.systemUTC())));

        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> refused() >= refusedBefore + 2);
            assertThat(controlState.stopped(spec.name()))
                    .as("still stopped after the forged lifts")
                    .isTrue();
            assertThat(controlState.stopReason(spec.name())).contains("refused (its signature by key");
            assertThat(ids("profiles")).contains(7L, 8L);
        } finally {
            control(lift); // the control plane's own, signed
        }
        assertThat(completed(task, 1)).hasSize(1);
        assertThat(ids("profiles")).doesNotContain(7L, 8L);
    }

    /** An old, genuinely signed lift sent again after a newer engage changes nothing: signals never step back. */
    @Test
    void aReplayedLiftAfterANewerEngageDoesNotLift() {
        ControlSignal lift =
                AuthorizedRuns.signed(ControlSignal.dataset(spec.name(), false, List.of(), "operator", "ok"));
        String liftMessage = json.writeValueAsString(EventEnvelope.startChain(lift, null, Clock.systemUTC()));
        send(Topics.CONTROL, Topics.controlKey(lift), liftMessage);
        control(ControlSignal.dataset(spec.name(), true, List.of(), "operator", "incident"));
        await().atMost(Duration.ofSeconds(30)).until(() -> switchedOff(spec.name()));
        double refusedBefore = refused();

        send(Topics.CONTROL, Topics.controlKey(lift), liftMessage);

        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> refused() >= refusedBefore + 1);
            assertThat(controlState.stopped(spec.name()))
                    .as("the replayed lift is older than the engage")
                    .isTrue();
            assertThat(controlState.stopReason(spec.name())).contains("incident");
        } finally {
            control(ControlSignal.dataset(spec.name(), false, List.of(), "operator", "all clear"));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> !controlState.stopped(spec.name()));
    }

    private double refused() {
        return meters.counter("erasure.deletion.control.refused").count();
    }

    /**
     * A replica that starts while a switch is on must not delete before it has read the switch: the control topic
     * holds many older messages before it, so reading it takes many polls, and the task is waiting when the
     * replica's shards join.
     */
    @Test
    void aRestartedReplicaReadsTheKillSwitchesBeforeItDeletesAnything() throws Exception {
        for (int i = 0; i < 3_000; i++) {
            ControlSignal other = ControlSignal.dataset(schema + "-other-" + i, false, List.of(), "operator", "noise");
            kafka.send(
                    Topics.CONTROL,
                    Topics.controlKey(other),
                    json.writeValueAsString(
                            EventEnvelope.startChain(AuthorizedRuns.signed(other), null, Clock.systemUTC())));
        }
        control(ControlSignal.dataset(spec.name(), true, List.of(), "operator", "incident"));
        // this test's own replica has seen the switch too, so only the restarted one could delete the rows
        await().atMost(Duration.ofSeconds(60)).until(() -> controlState.stopped(spec.name()));
        String group = "restarted-" + schema;
        startGroupAtTheEndOfTheTaskTopic(group);
        DeletionTask task = DeletionTask.forRun(RunId.random(), spec, keys(5, 6), CUTOFF);
        publish(task);

        try (ConfigurableApplicationContext restarted = startReplica(group)) {
            await().during(Duration.ofSeconds(6))
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> ids("profiles").containsAll(List.of(5L, 6L)));
            assertThat(completed(task, 0)).isEmpty();
        } finally {
            control(ControlSignal.dataset(spec.name(), false, List.of(), "operator", "all clear"));
        }
    }

    /**
     * After a replay and compaction, an old signed lift may be all the control topic holds of a scope whose switch a
     * newer engage turned on: a replica restarted then still keeps the dataset stopped (it applied the engage before,
     * and the service keeps it), and its task deletes nothing. The restarted replica reads a topic of its own that
     * holds just the lift, standing in for the compacted one.
     */
    @Test
    void aRestartedReplicaKeepsTheSwitchOnWhenOnlyAnOlderLiftIsLeftOfIt() throws Exception {
        ControlSignal lift =
                AuthorizedRuns.signed(ControlSignal.dataset(spec.name(), false, List.of(), "operator", "ok"));
        String liftMessage = json.writeValueAsString(EventEnvelope.startChain(lift, null, Clock.systemUTC()));
        send(Topics.CONTROL, Topics.controlKey(lift), liftMessage);
        control(ControlSignal.dataset(spec.name(), true, List.of(), "operator", "incident"));
        await().atMost(Duration.ofSeconds(30)).until(() -> switchedOff(spec.name()));
        send(Topics.CONTROL, Topics.controlKey(lift), liftMessage); // the replay: compaction keeps it, drops the engage

        String compacted = Topics.CONTROL + ".compacted-" + schema;
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, LocalEngines.kafka().bootstrapServers()))) {
            admin.createTopics(
                            List.of(new NewTopic(compacted, 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                    .all()
                    .get(10, TimeUnit.SECONDS);
        }
        send(compacted, Topics.controlKey(lift), liftMessage);
        String group = "restarted-" + schema;
        startGroupAtTheEndOfTheTaskTopic(group);
        DeletionTask task = DeletionTask.forRun(RunId.random(), spec, keys(5, 6), CUTOFF);
        publish(task);

        try (ConfigurableApplicationContext restarted =
                startReplica(group, Map.of("erasure.deletion.control-topic", compacted))) {
            ControlState restartedControl = restarted.getBean(ControlState.class);
            await().atMost(Duration.ofSeconds(60)).until(restartedControl::caughtUp);
            await().during(Duration.ofSeconds(6))
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> ids("profiles").containsAll(List.of(5L, 6L)));
            assertThat(completed(task, 0)).isEmpty();
            assertThat(restartedControl.stopped(spec.name()))
                    .as("the restarted replica's switch")
                    .isTrue();
        } finally {
            control(ControlSignal.dataset(spec.name(), false, List.of(), "operator", "all clear"));
        }
    }

    /** A second deletion replica, as after a restart: same engines, its own shard group, a fresh control state. */
    private ConfigurableApplicationContext startReplica(String group) {
        return startReplica(group, Map.of());
    }

    private ConfigurableApplicationContext startReplica(String group, Map<String, String> more) {
        Map<String, Object> properties = new HashMap<>();
        LocalEngines.postgres().springProperties().forEach(properties::put);
        LocalEngines.kafka().springProperties().forEach(properties::put);
        LocalEngines.s3().springProperties().forEach(properties::put);
        LocalEngines.cassandra().springProperties().forEach(properties::put); // the deletion log's dataset keys
        LocalEngines.postgres().storeConnectionProperties("pg-main").forEach(properties::put);
        properties.put("server.port", "0");
        properties.put("erasure.deletion.group", group);
        properties.put("erasure.deletion.kill-switch-poll", "100ms");
        properties.put("spring.flyway.enabled", "false");
        properties.putAll(more);
        // as arguments: default properties would rank below application.yml
        return new SpringApplicationBuilder(DeletionApplication.class)
                .run(properties.entrySet().stream()
                        .map(p -> "--" + p.getKey() + "=" + p.getValue())
                        .toArray(String[]::new));
    }

    private void startGroupAtTheEndOfTheTaskTopic(String group) throws Exception {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, LocalEngines.kafka().bootstrapServers()))) {
            List<TopicPartition> partitions = admin
                    .describeTopics(List.of(Topics.DELETION_TASKS))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(Topics.DELETION_TASKS)
                    .partitions()
                    .stream()
                    .map(p -> new TopicPartition(Topics.DELETION_TASKS, p.partition()))
                    .toList();
            Map<TopicPartition, OffsetAndMetadata> ends = admin
                    .listOffsets(partitions.stream().collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest())))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .entrySet()
                    .stream()
                    .collect(Collectors.toMap(
                            Map.Entry::getKey,
                            e -> new OffsetAndMetadata(e.getValue().offset())));
            admin.alterConsumerGroupOffsets(group, ends).all().get(10, TimeUnit.SECONDS);
        }
    }

    private static List<Map<String, Object>> keys(long... ids) {
        return LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    private void publish(DeletionTask task) {
        send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)));
    }

    /** The switch is applied: stopped() is also true before the control state caught up, which proves nothing. */
    private boolean switchedOff(String dataset) {
        return controlState.caughtUp() && controlState.stopped(dataset);
    }

    private void control(ControlSignal signal) {
        send(
                Topics.CONTROL,
                Topics.controlKey(signal),
                json.writeValueAsString(
                        EventEnvelope.startChain(AuthorizedRuns.signed(signal), null, Clock.systemUTC())));
    }

    private void send(String topic, String key, String value) {
        try {
            kafka.send(topic, key, value).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Long> ids(String table) {
        return jdbc.queryForList("SELECT id FROM " + schema + "." + table + " ORDER BY id", Long.class);
    }

    private List<BatchCompleted> completed(DeletionTask task, int atLeast) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> task.runId().value().equals(e.runId())
                                && e.payload() instanceof BatchCompleted b
                                && b.dataset().equals(task.dataset()),
                        atLeast,
                        Duration.ofSeconds(atLeast == 0 ? 3 : 60))
                .stream()
                .map(e -> (BatchCompleted) e.payload())
                .toList();
    }
}
