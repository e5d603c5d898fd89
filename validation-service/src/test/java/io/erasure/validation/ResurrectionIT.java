package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.tasks.DeletionTaskPublisher;
import io.erasure.validation.check.CandidateChecks;
import io.erasure.validation.finalset.RunFiles;
import io.erasure.validation.finalset.ValidationReport;
import io.erasure.validation.job.ProcessedJobs;
import io.erasure.validation.job.RunEvents;
import io.erasure.validation.job.ValidationJobs;
import io.erasure.validation.resurrection.ResurrectionDetector;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Zombies in a real Cassandra table, against a deletion log written as deletion-log-service writes it.
 * Customers 1..5 are all deletable; their profile rows are live:
 * <ul>
 *   <li>1: deleted by two earlier runs (first 5 h ago), back with a write timestamp older than both: resurrected</li>
 *   <li>2: never deleted: an ordinary row of the final set</li>
 *   <li>3: deleted 5 h ago, written again after this run's cut-off: dropped as newer, not a zombie</li>
 *   <li>4: deleted 3 h ago by a forward-deletion request, back with an old write timestamp: resurrected</li>
 *   <li>5: only another dataset's key 5 was deleted: not resurrected</li>
 * </ul>
 */
class ResurrectionIT extends ValidationTestSupport {

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));
    private static final Instant FIRST_DELETION = NOW.minus(Duration.ofHours(5));
    private static final Instant REQUEST_DELETION = NOW.minus(Duration.ofHours(3));

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    RunFiles files;

    @Autowired
    MeterRegistry meters;

    private String name;
    private DatasetSpec spec;
    private IdentifierSource source;

    @BeforeEach
    void zombies() {
        name = "r" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + name);
        jdbc.execute("CREATE TABLE " + name + ".customers (customer_id bigint PRIMARY KEY, deleted_at timestamptz)");
        for (long id = 1; id <= 5; id++) {
            jdbc.update(
                    "INSERT INTO " + name + ".customers VALUES (?, ?)",
                    id,
                    Timestamp.from(NOW.minus(Duration.ofDays(10))));
        }
        source = new IdentifierSource(
                name + "-customers",
                StoreKind.POSTGRES,
                "pg-main",
                name,
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation(name + "-customers", BackupFormat.JSONL_GZIP),
                Duration.ofDays(3));
        spec = DatasetSpec.builder()
                .name(name + "-profiles")
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cass-main")
                .namespace(name)
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource(source.name())
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name + "-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("demo-team")
                .build();

        cassandra()
                .execute("CREATE KEYSPACE " + name
                        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        cassandra().execute("CREATE TABLE " + name + ".profiles (customer_id bigint PRIMARY KEY, name text)");
        long beforeEveryDeletion = CutoffTimestamp.toMicros(NOW.minus(Duration.ofHours(6)));
        long longAgo = CutoffTimestamp.toMicros(NOW.minus(Duration.ofDays(10)));
        profile(1, beforeEveryDeletion);
        profile(2, longAgo);
        profile(3, CutoffTimestamp.toMicros(NOW)); // a genuinely new write, after the cut-off
        profile(4, beforeEveryDeletion);
        profile(5, longAgo);

        deletionLog()
                .writer()
                .write(List.of(
                        deleted(spec.name(), "run-earlier-a", null, 1, FIRST_DELETION),
                        deleted(spec.name(), "run-earlier-b", null, 1, NOW.minus(Duration.ofHours(2))),
                        deleted(spec.name(), "run-earlier-a", null, 3, FIRST_DELETION),
                        deleted(spec.name(), null, "request-4", 4, REQUEST_DELETION),
                        deleted(name + "-elsewhere", "run-earlier-a", null, 5, FIRST_DELETION)));
    }

    @Test
    void aRowDeletedBeforeAndLiveAgainIsReportedListedCountedAndDeletedAgain() {
        String runId = withCandidates();
        double countedBefore = counted();

        command(runId, new ValidationRequested(spec, source, CUTOFF, 5, 100, false));

        ValidationCompleted completed = single(runId, ValidationCompleted.class);
        assertThat(completed.candidateCount()).isEqualTo(5);
        assertThat(completed.finalCount()).isEqualTo(4);
        assertThat(completed.droppedByReason())
                .containsEntry("modifiedSinceBackup", 1L)
                .containsEntry("reactivated", 0L)
                .containsEntry("identifierNotFound", 0L)
                .containsEntry("alreadyAbsent", 0L);
        assertThat(completed.resurrectedCount()).isEqualTo(2);
        assertThat(completed.resurrectedKey()).isEqualTo(S3Layout.resurrectedKey(RunId.of(runId)));
        assertThat(finalIds(runId))
                .as("zombies stay in the final set; the newer row 3 does not")
                .containsExactly(1L, 2L, 4L, 5L);

        ValidationReport report = report(runId);
        assertThat(report.resurrectionCheck()).isEqualTo("checked");
        assertThat(report.resurrectedCount()).isEqualTo(2);
        assertThat(report.resurrectedKey()).isEqualTo(S3Layout.resurrectedKey(RunId.of(runId)));
        assertThat(files.readJsonLines(S3Layout.resurrectedKey(RunId.of(runId)), JsonNode.class))
                .containsExactly(
                        json.readTree("""
                        {"dataset": "%s", "key": {"customer_id": 1}, "firstDeletedAt": "%s",
                         "firstDeletedBy": "run-earlier-a", "foundByRun": "%s"}
                        """.formatted(spec.name(), FIRST_DELETION, runId)),
                        json.readTree("""
                        {"dataset": "%s", "key": {"customer_id": 4}, "firstDeletedAt": "%s",
                         "firstDeletedBy": "request-4", "foundByRun": "%s"}
                        """.formatted(spec.name(), REQUEST_DELETION, runId)));
        assertThat(counted() - countedBefore).isEqualTo(2.0);

        command(runId, authorized(runId, DeletionAuthorized.Basis.APPROVED, "operator2"));

        List<DeletionTask> tasks = tasks(runId);
        assertThat(tasks)
                .allSatisfy(task -> assertThat(task.cutoff())
                        .as("deleted again at this run's cut-off")
                        .isEqualTo(CUTOFF));
        assertThat(tasks.stream().flatMap(t -> t.keys().stream()).map(k -> ((Number) k.get("customer_id")).longValue()))
                .containsExactlyInAnyOrder(1L, 2L, 4L, 5L);
    }

    @Test
    void withoutTheDeletionLogTheReportSaysNotConfigured(
            @Autowired CandidateChecks checks,
            @Autowired StoreAdapterPool stores,
            @Autowired DeletionTaskPublisher publisher,
            @Autowired RunEvents events,
            @Autowired ProcessedJobs processed,
            @Autowired ValidationProperties properties,
            @Autowired Clock clock) {
        // the jobs as a service without erasure.validation.deletion-log.* has them, on this context's engines
        ValidationJobs unconfigured = new ValidationJobs(
                files,
                checks,
                stores,
                publisher,
                events,
                processed,
                properties,
                clock,
                ResurrectionDetector.notConfigured(meters));
        String runId = withCandidates();

        unconfigured.validate(runId, new ValidationRequested(spec, source, CUTOFF, 5, 100, false));

        ValidationReport report = report(runId);
        assertThat(report.resurrectionCheck()).isEqualTo("not configured");
        assertThat(report.resurrectedCount()).isZero();
        assertThat(report.resurrectedKey()).isNull();
        assertThat(json.readTree(json.writeValueAsString(report))
                        .get("resurrectionCheck")
                        .asString())
                .isEqualTo("not configured");
        ValidationCompleted completed = single(runId, ValidationCompleted.class);
        assertThat(completed.resurrectedCount()).isZero();
        assertThat(completed.resurrectedKey()).isNull();
        assertThat(completed.finalCount()).isEqualTo(4);
        assertThat(files.readJsonLines(S3Layout.resurrectedKey(RunId.of(runId)), JsonNode.class))
                .isEmpty();
        assertThat(finalIds(runId)).containsExactly(1L, 2L, 4L, 5L);
    }

    private void profile(long id, long writeTimeMicros) {
        cassandra()
                .execute("INSERT INTO " + name + ".profiles (customer_id, name) VALUES (" + id + ", 'name-" + id
                        + "') USING TIMESTAMP " + writeTimeMicros);
    }

    private static DeletionRecord deleted(String dataset, String run, String request, long id, Instant deletedAt) {
        Map<String, Object> key = Map.of("customer_id", id);
        return new DeletionRecord(
                DeletionRecord.recordIdFor(run != null ? run : request, dataset, key),
                dataset,
                key,
                List.of(ColumnValue.of("customer_id", id), ColumnValue.of("name", "name-" + id)),
                CutoffTimestamp.fromInstant(deletedAt.minus(Duration.ofHours(1))),
                run == null ? null : RunId.of(run),
                request,
                "task-1",
                "batch-1",
                deletedAt,
                null);
    }

    private double counted() {
        Counter counter = meters.find(ResurrectionDetector.COUNTER)
                .tag("dataset", spec.name())
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private String withCandidates() {
        String runId = RunId.random().value();
        files.writePart(
                S3Layout.candidatesPartKey(RunId.of(runId), 0),
                LongStream.rangeClosed(1, 5)
                        .mapToObj(id -> new Candidate(Map.of("customer_id", id), Long.toString(id), null))
                        .toList());
        return runId;
    }

    private ValidationReport report(String runId) {
        return files.readJson(S3Layout.reportKey(RunId.of(runId)), ValidationReport.class)
                .orElseThrow();
    }

    private List<Long> finalIds(String runId) {
        List<Long> ids = new ArrayList<>();
        for (String part : files.parts(S3Layout.finalPrefix(RunId.of(runId)))) {
            files.readPart(part).forEach(c -> ids.add(((Number) c.key().get("customer_id")).longValue()));
        }
        return ids.stream().sorted().toList();
    }

    private void command(String runId, EventPayload payload) {
        EventEnvelope envelope = EventEnvelope.of(payload, runId, UUID.randomUUID(), Clock.systemUTC());
        try {
            kafka.send(Topics.RUN_COMMANDS, runId, json.writeValueAsString(envelope))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private <P extends EventPayload> P single(String runId, Class<P> type) {
        List<EventEnvelope> found = read(
                Topics.RUN_EVENTS,
                value -> json.readValue(value, EventEnvelope.class),
                e -> runId.equals(e.runId()) && type.isInstance(e.payload()));
        assertThat(found).as(type.getSimpleName() + " of run " + runId).hasSize(1);
        return type.cast(found.get(0).payload());
    }

    private List<DeletionTask> tasks(String runId) {
        return read(
                Topics.DELETION_TASKS,
                value -> json.readValue(value, DeletionTask.class),
                t -> t.runId() != null && runId.equals(t.runId().value()));
    }

    private <T> List<T> read(String topic, Function<String, T> parse, Predicate<T> filter) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(), topic, parse, filter, 1, Duration.ofSeconds(40));
    }
}
