package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.deletion.control.ControlState;
import io.erasure.deletion.execution.Step;
import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.deletionlog.client.FrozenSpecs;
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
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.Authorization.Kind;
import io.erasure.model.trust.EventSeals;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.model.trust.TrustedKeys.Trusted;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Rows 1..10 of a live PostgreSQL table written long before the cut-off, except row 3, written after
 * it. Tasks ask to delete 1..6.
 */
class DeletionPipelineIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    ControlState controlState;

    @Autowired
    Supplier<FrozenSpecs> frozenSpecs;

    private String schema;
    private DatasetSpec spec;

    @BeforeEach
    void liveTable() {
        schema = "d" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute("CREATE TABLE " + schema
                + ".profiles (id bigint PRIMARY KEY, name text, updated_at timestamptz NOT NULL)");
        for (long id = 1; id <= 10; id++) {
            Instant written = id == 3 ? CUTOFF.toInstant().plusSeconds(30) : NOW.minus(Duration.ofDays(10));
            jdbc.update(
                    "INSERT INTO " + schema + ".profiles VALUES (?, ?, ?)", id, "name-" + id, Timestamp.from(written));
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
                .build();
    }

    @Test
    void rowsAreLoggedThenDeletedAndARowWrittenAfterTheCutoffSurvives() {
        DeletionTask task = task(spec, 1, 2, 3, 4, 5, 6);

        publish(task);

        BatchCompleted batch = completed(task, 1).get(0);
        assertThat(batch.counts().deleted()).isEqualTo(5);
        assertThat(batch.counts().skippedNewer()).isEqualTo(1);
        assertThat(batch.readBack()).isEqualTo(ReadBackResult.CLEAN);
        assertThat(ids()).containsExactly(3L, 7L, 8L, 9L, 10L);
        List<DeletionRecord> logged = records(task, 5);
        assertThat(logged)
                .extracting(r -> ((Number) r.primaryKey().get("id")).longValue())
                .containsExactlyInAnyOrder(1L, 2L, 4L, 5L, 6L);
        assertThat(logged).allSatisfy(r -> {
            assertThat(r.cutoff()).isEqualTo(CUTOFF);
            assertThat(r.columns()).anySatisfy(c -> assertThat(c.name()).isEqualTo("name"));
        });
        assertThat(logged.get(0).columns())
                .filteredOn(c -> c.name().equals("name"))
                .singleElement()
                .satisfies(c -> assertThat((String) c.value()).startsWith("name-"));
        // the spec the rows were deleted under is kept with the log: recoveries restore under it, never a caller's
        assertThat(frozenSpecs.get().ofOrigin(task.runId().value()))
                .singleElement()
                .satisfies(frozen -> {
                    assertThat(frozen.spec()).isEqualTo(spec);
                    assertThat(frozen.digest()).isEqualTo(FrozenSpec.digest(spec, json));
                    assertThat(frozen.copyOf()).isNull();
                });
    }

    @Test
    void aTaskWithACutoffInTheFutureDeletesNothingAndFailsWithTheReason() {
        DeletionTask task = DeletionTask.forRun(
                RunId.random(), spec, keysOf(9, 10), CutoffTimestamp.fromInstant(NOW.plus(Duration.ofHours(1))));

        publish(task);

        assertThat(events(task, BatchFailed.class, 1))
                .singleElement()
                .satisfies(f -> assertThat(f.reason()).contains("cut-off in the future"));
        assertThat(ids()).contains(9L, 10L);
        assertThat(records(task, 0)).isEmpty();
    }

    @Test
    void aRedeliveredTaskHasNoSecondEffect() {
        DeletionTask task = task(spec, 1, 2);
        publish(task);
        completed(task, 1);
        // the key is legitimately written again after the deletion
        jdbc.update("INSERT INTO " + schema + ".profiles VALUES (1, 'back', now())");

        publish(task);

        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries(task.batchId(0)) == 2);
        assertThat(ids()).contains(1L).doesNotContain(2L);
        assertThat(records(task, 2)).hasSize(2);
        assertThat(completed(task, 1)).extracting(BatchCompleted::batchId).containsOnly(task.batchId(0));
        assertThat(deliveries(task.batchId(0))).isEqualTo(2);
    }

    private int deliveries(String batchId) {
        List<Integer> deliveries = jdbc.queryForList(
                "SELECT deliveries FROM deletion.processed_batches WHERE batch_id = ?", Integer.class, batchId);
        return deliveries.isEmpty() ? 0 : deliveries.get(0);
    }

    @Test
    void aCrashBetweenTheLogAndTheDeleteLosesNothing() {
        DeletionTask task = task(spec, 1, 2, 4);
        crashes.arm(Step.LOGGED, task.batchId(0));

        publish(task);

        completed(task, 1);
        assertThat(ids()).doesNotContain(1L, 2L, 4L);
        assertThat(records(task, 3).stream().map(DeletionRecord::recordId).distinct())
                .hasSize(3);
    }

    @Test
    void aCrashAfterTheDeleteLeavesEveryDeletedRowInTheLog() {
        DeletionTask task = task(spec, 5, 6);
        crashes.arm(Step.DELETED, task.batchId(0));

        publish(task);

        completed(task, 1);
        assertThat(ids()).doesNotContain(5L, 6L);
        assertThat(records(task, 2))
                .extracting(r -> ((Number) r.primaryKey().get("id")).longValue())
                .contains(5L, 6L);
    }

    @Test
    void theKillSwitchStopsDeletionUntilItIsReleased() {
        control(ControlSignal.dataset(spec.name(), true, List.of(), "operator", "incident"));
        await().atMost(Duration.ofSeconds(30)).until(() -> switchedOff(spec.name()));
        DeletionTask task = task(spec, 7, 8);

        publish(task);

        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(10))
                .until(() -> ids().containsAll(List.of(7L, 8L)));
        assertThat(completed(task, 0)).isEmpty();
        assertThat(records(task, 0)).isEmpty();

        control(ControlSignal.dataset(spec.name(), false, List.of(), "operator", "all clear"));
        completed(task, 1);
        assertThat(ids()).doesNotContain(7L, 8L);
    }

    @Test
    void theCopiesOfDeletedRowsAreDeletedAfterTheirSourceAndTheRowThatSurvivedKeepsItsCopy() {
        DatasetSpec withCopy = withCopies(copyTable("profiles_copy"));
        // the copy of row 4 was refreshed from its source after the backup's cut-off: it still holds deleted data
        jdbc.update(
                "UPDATE " + schema + ".profiles_copy SET updated_at = ? WHERE id = 4",
                Timestamp.from(CUTOFF.toInstant().plusSeconds(60)));
        DeletionTask task = task(withCopy, 1, 2, 3, 4);

        publish(task);

        List<BatchCompleted> batches = completed(task, 2);
        BatchCompleted source =
                batches.stream().filter(b -> !b.ofCopy()).findFirst().orElseThrow();
        BatchCompleted copy =
                batches.stream().filter(BatchCompleted::ofCopy).findFirst().orElseThrow();
        assertThat(source.copyTasks()).isEqualTo(1);
        assertThat(source.keysDigest()).isEqualTo(CanonicalKey.digestOf(keysOf(1, 2, 4)));
        assertThat(copy.copyOf()).isEqualTo(withCopy.name());
        assertThat(copy.dataset()).isEqualTo(withCopy.name() + "--profiles-copy");
        assertThat(copy.counts().deleted()).isEqualTo(3);
        assertThat(copy.counts().skippedNewer()).isZero();
        assertThat(copy.readBack()).isEqualTo(ReadBackResult.CLEAN);
        assertThat(ids("profiles")).containsExactly(3L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(ids("profiles_copy")).containsExactly(3L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(records(task, 6))
                .filteredOn(r -> r.dataset().equals(copy.dataset()))
                .extracting(r -> ((Number) r.primaryKey().get("id")).longValue())
                .containsExactlyInAnyOrder(1L, 2L, 4L);
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM deletion.batch_copy_sources WHERE batch_id = ?",
                        Long.class,
                        task.batchId(0)))
                .as("copy values are forgotten once the batch is reported")
                .isZero();
    }

    @Test
    void aCrashBetweenTheSourceDeleteAndTheCopyTasksStillReachesTheCopy() {
        DatasetSpec withCopy = withCopies(copyTable("profiles_copy"));
        DeletionTask task = task(withCopy, 5, 6);
        crashes.arm(Step.DELETED, task.batchId(0));

        publish(task);

        List<BatchCompleted> batches = completed(task, 2);
        assertThat(batches)
                .filteredOn(BatchCompleted::ofCopy)
                .singleElement()
                .satisfies(b -> assertThat(b.counts().deleted()).isEqualTo(2));
        assertThat(ids("profiles")).doesNotContain(5L, 6L);
        assertThat(ids("profiles_copy")).doesNotContain(5L, 6L).contains(1L, 2L);
    }

    @Test
    void aFailingCopyDoesNotHoldBackTheOtherCopies() {
        DatasetSpec withCopies = withCopies(
                new DatasetCopy(
                        "missing-copy",
                        StoreKind.POSTGRES,
                        "pg-main",
                        new CopyTarget.TableMapping(schema, "no_such_table", Map.of("id", "id"))),
                copyTable("profiles_copy"));
        DeletionTask task = task(withCopies, 7, 8);

        publish(task);

        List<BatchFailed> failed = events(task, BatchFailed.class, 1);
        assertThat(failed).singleElement().satisfies(f -> {
            assertThat(f.dataset()).isEqualTo(withCopies.name() + "--missing-copy");
            assertThat(f.reason()).contains("no_such_table");
        });
        assertThat(completed(task, 2))
                .filteredOn(BatchCompleted::ofCopy)
                .singleElement()
                .satisfies(b -> assertThat(b.dataset()).endsWith("--profiles-copy"));
        assertThat(ids("profiles")).doesNotContain(7L, 8L);
        assertThat(ids("profiles_copy")).doesNotContain(7L, 8L);
    }

    @Test
    void aCacheKeyedByAColumnOutsideTheKeyIsDeletedEvenAfterACrashBetweenTheSourceDeleteAndTheCopyTasks() {
        // profile:<name> is keyed by a value only the deleted row had: after the crash the source row is gone,
        // and only the values remembered at the write-ahead step can still name the cache entry
        String prefix = schema + ":profile:";
        DatasetSpec withCache = withCopies(new DatasetCopy(
                "profile-cache", StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate(prefix + "{name}")));
        try (RedisClient client =
                        RedisClient.create("redis://" + LocalEngines.redis().host() + ":"
                                + LocalEngines.redis().port());
                StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            for (long id = 1; id <= 10; id++) {
                redis.set(prefix + "name-" + id, "{\"id\":" + id + "}");
            }
            DeletionTask task = task(withCache, 3, 5, 6);
            crashes.arm(Step.DELETED, task.batchId(0));

            publish(task);

            List<BatchCompleted> batches = completed(task, 2);
            assertThat(batches)
                    .filteredOn(BatchCompleted::ofCopy)
                    .singleElement()
                    .satisfies(b -> {
                        assertThat(b.dataset()).isEqualTo(withCache.name() + "--profile-cache");
                        assertThat(b.counts().deleted()).isEqualTo(2);
                    });
            assertThat(ids()).doesNotContain(5L, 6L).contains(3L);
            assertThat(redis.exists(prefix + "name-5", prefix + "name-6"))
                    .as("cache entries of deleted rows")
                    .isZero();
            assertThat(redis.get(prefix + "name-3"))
                    .as("the row written after the cut-off keeps its cache entry")
                    .isEqualTo("{\"id\":3}");
            assertThat(redis.exists(prefix + "name-7")).isEqualTo(1);
            assertThat(records(task, 4))
                    .filteredOn(r -> r.dataset().endsWith("--profile-cache"))
                    .extracting(r -> r.primaryKey().get("name"))
                    .containsExactlyInAnyOrder("name-5", "name-6");
        }
    }

    /** A copy of the live table with the same rows and write times, registered as a table-mapped copy. */
    private DatasetCopy copyTable(String table) {
        jdbc.execute("CREATE TABLE " + schema + "." + table
                + " (id bigint PRIMARY KEY, name text, updated_at timestamptz NOT NULL)");
        jdbc.update("INSERT INTO " + schema + "." + table + " SELECT * FROM " + schema + ".profiles");
        return new DatasetCopy(
                table.replace('_', '-'),
                StoreKind.POSTGRES,
                "pg-main",
                new CopyTarget.TableMapping(schema, table, Map.of("id", "id", "name", "name")));
    }

    private DatasetSpec withCopies(DatasetCopy... copies) {
        return spec.toBuilder().copies(List.of(copies)).build();
    }

    private static List<Map<String, Object>> keysOf(long... ids) {
        return LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    private DeletionTask task(DatasetSpec dataset, long... ids) {
        List<Map<String, Object>> keys = LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
        return DeletionTask.forRun(RunId.random(), dataset, keys, CUTOFF);
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

    private List<Long> ids() {
        return ids("profiles");
    }

    private List<Long> ids(String table) {
        return jdbc.queryForList("SELECT id FROM " + schema + "." + table + " ORDER BY id", Long.class);
    }

    private List<BatchCompleted> completed(DeletionTask task, int atLeast) {
        return events(task, BatchCompleted.class, atLeast);
    }

    /** deletion-service's LOCAL ONLY public key, as the control plane trusts it: for batch results only. */
    private static final TrustedKeys CONTROL_PLANE_TRUST = TrustedKeys.of(Map.of(
            "deletion-local",
            new Trusted(
                    TrustedKeys.publicKey(
                            "deletion-local", "MCowBQYDK2VwAyEASDd2Mgo3/hMQg1TrU5E92IbO8CwWhWaAcBcShtFSj0Q="),
                    EnumSet.of(Kind.BATCH_RESULT))));

    /** The task's run's events of {@code type}, each sealed with this service's key as the control plane checks it. */
    private <P> List<P> events(DeletionTask task, Class<P> type, int atLeast) {
        List<EventEnvelope> events = TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.RUN_EVENTS,
                value -> json.readValue(value, EventEnvelope.class),
                e -> task.runId().value().equals(e.runId()) && type.isInstance(e.payload()),
                atLeast,
                Duration.ofSeconds(atLeast == 0 ? 3 : 60));
        events.forEach(e -> assertThat(EventSeals.refusal(e, CONTROL_PLANE_TRUST))
                .as("the seal of " + e.eventType() + " " + e.eventId())
                .isEmpty());
        return events.stream().map(e -> type.cast(e.payload())).toList();
    }

    private List<DeletionRecord> records(DeletionTask task, int atLeast) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_LOG,
                this::logged,
                r -> task.runId().equals(r.runId()),
                atLeast,
                Duration.ofSeconds(atLeast == 0 ? 3 : 30));
    }
}
