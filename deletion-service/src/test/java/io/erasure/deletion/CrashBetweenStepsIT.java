package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.deletion.execution.Step;
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
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A batch stopped after any of its steps (as a crash would) and redelivered loses nothing: every row it deleted has
 * its record in the log, the rows and their copies are gone, the row written after the cut-off and its copies stay,
 * the batch is recorded once and no remembered copy value is left. Rows 1..6 of a PostgreSQL table, row 3 written after
 * the cut-off; the task deletes 1..5.
 */
class CrashBetweenStepsIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));
    private static final List<Long> DELETED = List.of(1L, 2L, 4L, 5L);

    private static RedisClient redisClient;
    private static StatefulRedisConnection<String, String> redisConnection;

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    private String schema;
    private DatasetSpec spec;
    private RedisCommands<String, String> redis;

    @BeforeAll
    static void connectRedis() {
        redisClient = RedisClient.create("redis://" + LocalEngines.redis().host() + ":"
                + LocalEngines.redis().port());
        redisConnection = redisClient.connect();
    }

    @AfterAll
    static void closeRedis() {
        redisConnection.close();
        redisClient.shutdown();
    }

    @BeforeEach
    void liveTables() {
        redis = redisConnection.sync();
        schema = "c" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        for (String table : List.of("profiles", "profiles_copy")) {
            jdbc.execute("CREATE TABLE " + schema + "." + table
                    + " (id bigint PRIMARY KEY, name text, updated_at timestamptz NOT NULL)");
            for (long id = 1; id <= 6; id++) {
                Instant written = id == 3 ? CUTOFF.toInstant().plusSeconds(30) : NOW.minus(Duration.ofDays(10));
                jdbc.update(
                        "INSERT INTO " + schema + "." + table + " VALUES (?, ?, ?)",
                        id,
                        "name-" + id,
                        Timestamp.from(written));
            }
        }
        for (long id = 1; id <= 6; id++) {
            redis.set(cacheKey(id), "{\"id\":" + id + "}");
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
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("demo-team")
                .build();
    }

    @ParameterizedTest(name = "crash after {0}")
    @EnumSource(Step.class)
    void withCopiesACrashAfterAnyStepLosesNothing(Step step) {
        // a table copy keyed by the source key, and a cache keyed by a value only the deleted row had
        DatasetSpec withCopies =
                spec.toBuilder().copies(List.of(tableCopy(), cacheCopy())).build();
        DeletionTask task = task(withCopies);
        AtomicLong rememberedAtDelete = rememberedAfterTheDelete(task);
        crashes.arm(step, task.batchId(0));

        publish(task);

        assertThat(completed(task, task.dataset())).isNotEmpty();
        assertThat(completed(task, withCopies.name() + "--profiles-copy")).isNotEmpty();
        assertThat(completed(task, withCopies.name() + "--profile-cache")).isNotEmpty();
        assertEverythingDeletedOnce(task);
        assertThat(ids("profiles_copy")).containsExactly(3L, 6L);
        assertThat(redis.exists(
                        DELETED.stream().map(CrashBetweenStepsIT.this::cacheKey).toArray(String[]::new)))
                .as("cache entries of deleted rows")
                .isZero();
        assertThat(redis.get(cacheKey(3)))
                .as("the row written after the cut-off keeps its cache entry")
                .isNotNull();
        assertThat(rememberedAtDelete.get())
                .as("the cache's values, remembered before the source delete")
                .isEqualTo(DELETED.size());
    }

    @ParameterizedTest(name = "crash after {0}")
    @EnumSource(Step.class)
    void withoutCopiesACrashAfterAnyStepLosesNothingAndNothingIsRemembered(Step step) {
        DeletionTask task = task(spec);
        AtomicLong rememberedAtDelete = rememberedAfterTheDelete(task);
        crashes.arm(step, task.batchId(0));

        publish(task);

        assertThat(completed(task, task.dataset()))
                .isNotEmpty()
                .allSatisfy(b -> assertThat(b.copyTasks()).isZero());
        assertEverythingDeletedOnce(task);
        assertThat(rememberedAtDelete.get()).isZero();
    }

    @Test
    void aCopyKeyedByTheSourceKeyRemembersNothingYetACrashAfterTheDeleteStillReachesIt() {
        DatasetSpec withCopy = spec.toBuilder().copies(List.of(tableCopy())).build();
        DeletionTask task = task(withCopy);
        AtomicLong rememberedAtDelete = rememberedAfterTheDelete(task);
        crashes.arm(Step.DELETED, task.batchId(0));

        publish(task);

        assertThat(completed(task, task.dataset())).isNotEmpty();
        assertThat(completed(task, withCopy.name() + "--profiles-copy")).isNotEmpty();
        assertEverythingDeletedOnce(task);
        assertThat(rememberedAtDelete.get()).isZero();
        assertThat(ids("profiles_copy")).containsExactly(3L, 6L);
    }

    /** The source rows are gone, each has its record, the batch is recorded once and no copy value is left. */
    private void assertEverythingDeletedOnce(DeletionTask task) {
        assertThat(ids("profiles")).containsExactly(3L, 6L);
        List<DeletionRecord> records = records(task, DELETED.size()).stream()
                .filter(r -> r.dataset().equals(task.dataset()))
                .toList();
        assertThat(records)
                .extracting(r -> ((Number) r.primaryKey().get("id")).longValue())
                .containsAll(DELETED)
                .doesNotContain(3L, 6L);
        assertThat(records.stream().map(DeletionRecord::recordId).distinct()).hasSize(DELETED.size());
        // the batch is recorded while its report travels: give the record a moment
        await().atMost(Duration.ofSeconds(10)).until(() -> count("processed_batches", task) > 0);
        assertThat(count("processed_batches", task)).isEqualTo(1);
        assertThat(count("batch_copy_sources", task))
                .as("remembered copy values are dropped with the batch's record")
                .isZero();
    }

    private long count(String table, DeletionTask task) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM deletion." + table + " WHERE batch_id = ?", Long.class, task.batchId(0));
    }

    /** How many copy values the batch had remembered right after its source delete (in whichever delivery). */
    private AtomicLong rememberedAfterTheDelete(DeletionTask task) {
        AtomicLong remembered = new AtomicLong(-1);
        crashes.runAfter(Step.DELETED, task.batchId(0), () -> remembered.set(count("batch_copy_sources", task)));
        return remembered;
    }

    private DatasetCopy tableCopy() {
        return new DatasetCopy(
                "profiles-copy",
                StoreKind.POSTGRES,
                "pg-main",
                new CopyTarget.TableMapping(schema, "profiles_copy", Map.of("id", "id", "name", "name")));
    }

    private DatasetCopy cacheCopy() {
        return new DatasetCopy(
                "profile-cache", StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate(schema + ":profile:{name}"));
    }

    private String cacheKey(long id) {
        return schema + ":profile:name-" + id;
    }

    private static DeletionTask task(DatasetSpec dataset) {
        List<Map<String, Object>> keys = LongStream.rangeClosed(1, 5)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
        return DeletionTask.forRun(RunId.random(), dataset, keys, CUTOFF);
    }

    private void publish(DeletionTask task) {
        try {
            kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Long> ids(String table) {
        return jdbc.queryForList("SELECT id FROM " + schema + "." + table + " ORDER BY id", Long.class);
    }

    /** The run's batch results of {@code dataset} (the source, or one of its copies), waiting for the first. */
    private List<BatchCompleted> completed(DeletionTask task, String dataset) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> task.runId().value().equals(e.runId())
                                && e.payload() instanceof BatchCompleted b
                                && b.dataset().equals(dataset),
                        1,
                        Duration.ofSeconds(60))
                .stream()
                .map(e -> (BatchCompleted) e.payload())
                .toList();
    }

    private List<DeletionRecord> records(DeletionTask task, int atLeast) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_LOG,
                this::logged,
                r -> task.runId().equals(r.runId()),
                atLeast,
                Duration.ofSeconds(30));
    }
}
