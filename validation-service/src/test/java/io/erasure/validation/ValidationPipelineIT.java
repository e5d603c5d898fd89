package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.Authorization.Kind;
import io.erasure.model.trust.EventSeals;
import io.erasure.model.trust.FinalSetManifest;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.model.trust.TrustedKeys.Trusted;
import io.erasure.support.trust.SpecDigest;
import io.erasure.validation.finalset.RunFiles;
import io.erasure.validation.finalset.ValidationReport;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
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
import tools.jackson.databind.json.JsonMapper;

/**
 * Candidates 1..10 of a live PostgreSQL table; the live state drops five of them, one per reason
 * (3 reactivated, 4 still within its grace period, 9 unknown to the identifier source, 5 already
 * gone, 6 written after the backup's cut-off), so the final set is exactly 1, 2, 7, 8, 10.
 */
class ValidationPipelineIT extends ValidationTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    RunFiles files;

    private String schema;
    private DatasetSpec spec;
    private IdentifierSource source;

    @BeforeEach
    void liveTables() {
        schema = "v" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute("CREATE TABLE " + schema + ".customers (customer_id bigint PRIMARY KEY, deleted_at timestamptz)");
        jdbc.execute("CREATE TABLE " + schema + ".profiles (customer_id bigint PRIMARY KEY, name text,"
                + " updated_at timestamptz NOT NULL)");
        Timestamp longAgo = Timestamp.from(NOW.minus(Duration.ofDays(10)));
        for (long id = 1; id <= 10; id++) {
            if (id != 9) {
                Timestamp deletedAt =
                        id == 3 ? null : id == 4 ? Timestamp.from(NOW.minus(Duration.ofDays(1))) : longAgo;
                jdbc.update("INSERT INTO " + schema + ".customers VALUES (?, ?)", id, deletedAt);
            }
            if (id != 5) {
                Timestamp updatedAt =
                        id == 6 ? Timestamp.from(CUTOFF.toInstant().plusSeconds(60)) : longAgo;
                jdbc.update("INSERT INTO " + schema + ".profiles VALUES (?, ?, ?)", id, "name-" + id, updatedAt);
            }
        }
        source = new IdentifierSource(
                schema + "-customers",
                StoreKind.POSTGRES,
                "pg-main",
                schema,
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation(schema + "-customers", BackupFormat.JSONL_GZIP),
                Duration.ofDays(3));
        spec = DatasetSpec.builder()
                .name(schema + "-profiles")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(schema)
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource(source.name())
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(schema + "-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.01))
                .ownerTeam("demo-team")
                .build();
    }

    @Test
    void onlyStillDeletablePresentUnmodifiedRowsReachTheFinalSetAndTasksWaitForAuthorization() {
        String runId = withCandidates();

        command(runId, new ValidationRequested(spec, source, CUTOFF, 10, 100, false));

        ValidationCompleted completed = single(runId, ValidationCompleted.class);
        assertThat(completed.candidateCount()).isEqualTo(10);
        assertThat(completed.finalCount()).isEqualTo(5);
        assertThat(completed.droppedByReason())
                .containsEntry("reactivated", 2L)
                .containsEntry("identifierNotFound", 1L)
                .containsEntry("alreadyAbsent", 1L)
                .containsEntry("modifiedSinceBackup", 1L);
        assertThat(completed.exceedsLimit())
                .as("5 of 100 rows is over the 1 % limit")
                .isTrue();
        assertThat(completed.taskCount()).isEqualTo(1);
        assertThat(completed.specDigest())
                .as("the spec it validated, which the control plane compares with its run's")
                .isEqualTo(SpecDigest.of(spec));
        assertThat(finalIds(runId)).containsExactly(1L, 2L, 7L, 8L, 10L);
        assertThat(events(runId, e -> true, 1))
                .as("no task before DeletionAuthorized")
                .allSatisfy(e -> assertThat(e.payload()).isNotInstanceOf(TasksPublished.class));
        assertThat(tasks(runId, 0)).isEmpty();

        command(runId, authorized(runId, DeletionAuthorized.Basis.APPROVED, "operator2"));

        TasksPublished published = single(runId, TasksPublished.class);
        List<DeletionTask> tasks = tasks(runId, 1);
        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0).cutoff()).isEqualTo(CUTOFF);
        assertThat(tasks.get(0).spec()).isEqualTo(spec);
        assertThat(tasks.get(0).keys())
                .extracting(k -> ((Number) k.get("customer_id")).longValue())
                .containsExactlyInAnyOrder(1L, 2L, 7L, 8L, 10L);
        assertThat(tasks.get(0).paced()).as("not spread unless its spec asks").isFalse();
        assertThat(tasks.get(0).authority().authorization().origin())
                .as("the run's signed authorization, copied")
                .isEqualTo(runId);
        assertThat(tasks.get(0).authority().authorization().setDigest()).isEqualTo(completed.finalSetDigest());
        assertThat(published.keyCount()).isEqualTo(5);
        assertThat(profileIds()).as("validation deletes nothing").hasSize(9);
    }

    @Test
    void theTasksOfASpreadRunCarryItsWindowFromWhenTheyArePublishedAndItsKeyCount() {
        spec = spec.toBuilder().spreadOver(Duration.ofHours(6)).build();
        String runId = withCandidates();
        command(runId, new ValidationRequested(spec, source, CUTOFF, 10, 1_000, false));
        single(runId, ValidationCompleted.class);

        Instant authorized = Instant.now();
        command(runId, authorized(runId, DeletionAuthorized.Basis.UNDER_LIMIT, "cp"));

        assertThat(single(runId, TasksPublished.class).keyCount()).isEqualTo(5);
        assertThat(tasks(runId, 1)).isNotEmpty().allSatisfy(task -> {
            assertThat(task.paced()).isTrue();
            assertThat(task.spread().plannedKeys())
                    .as("the run's keys, all tasks together")
                    .isEqualTo(5);
            assertThat(task.spread().start()).isBetween(authorized.minusSeconds(1), Instant.now());
            assertThat(task.spread().length()).isEqualTo(Duration.ofHours(6));
        });
    }

    @Test
    void aRedeliveredJobPublishesNothingTwice() {
        String runId = withCandidates();
        ValidationRequested request = new ValidationRequested(spec, source, CUTOFF, 10, 1_000, false);

        command(runId, request);
        single(runId, ValidationCompleted.class);
        command(runId, request);
        DeletionAuthorized authorized = authorized(runId, DeletionAuthorized.Basis.UNDER_LIMIT, "cp");
        command(runId, authorized);
        single(runId, TasksPublished.class);
        command(runId, authorized);
        // both redeliveries were seen (and counted) before anything is asserted about what they published
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries("publish:" + runId) == 2);

        assertThat(events(runId, e -> e.payload() instanceof ValidationCompleted, 1))
                .hasSize(1);
        assertThat(events(runId, e -> e.payload() instanceof TasksPublished, 1)).hasSize(1);
        assertThat(tasks(runId, 1)).hasSize(1);
        assertThat(deliveries("validate:" + runId)).isEqualTo(2);
    }

    private int deliveries(String job) {
        List<Integer> deliveries = jdbc.queryForList(
                "SELECT deliveries FROM validation.processed_jobs WHERE job_id = ?", Integer.class, job);
        return deliveries.isEmpty() ? 0 : deliveries.get(0);
    }

    @Test
    void aFinalSetOlderThanTheLimitIsRevalidatedBeforeItsTasksArePublished() {
        String runId = withCandidates();
        command(runId, new ValidationRequested(spec, source, CUTOFF, 10, 1_000, false));
        assertThat(single(runId, ValidationCompleted.class).finalCount()).isEqualTo(5);

        // after validation: customer 7 comes back, profile 8 is written again
        jdbc.update("UPDATE " + schema + ".customers SET deleted_at = NULL WHERE customer_id = 7");
        jdbc.update("UPDATE " + schema + ".profiles SET updated_at = now() WHERE customer_id = 8");
        sleep(1200);
        command(runId, authorized(runId, DeletionAuthorized.Basis.APPROVED, "operator2"));

        TasksPublished published = single(runId, TasksPublished.class);
        assertThat(published.keyCount()).isEqualTo(3);
        DeletionTask task = tasks(runId, 1).get(0);
        assertThat(task.keys())
                .extracting(k -> ((Number) k.get("customer_id")).longValue())
                .containsExactlyInAnyOrder(1L, 2L, 10L);
        // the signed final set stays as it was authorized: the re-validated keys are a subset of one of its parts
        assertThat(finalIds(runId))
                .as("the authorized final set, not rewritten")
                .containsExactly(1L, 2L, 7L, 8L, 10L);
        FinalSetManifest manifest = files.readJson(S3Layout.finalManifestKey(RunId.of(runId)), FinalSetManifest.class)
                .orElseThrow();
        assertThat(task.authority().authorization().setDigest()).isEqualTo(manifest.digest());
        assertThat(manifest.part(task.authority().finalPart()))
                .as("the part the task names")
                .isNotNull()
                .extracting(FinalSetManifest.Part::keyCount)
                .isEqualTo(5L);
        assertThat(files.readJson(S3Layout.reportKey(RunId.of(runId)), ValidationReport.class)
                        .orElseThrow()
                        .finalSetDigest())
                .as("the re-validated report keeps the digest its authorization covers")
                .isEqualTo(manifest.digest());
    }

    @Test
    void anAuthorizationWithoutASignaturePublishesNothing() {
        String runId = withCandidates();
        command(runId, new ValidationRequested(spec, source, CUTOFF, 10, 1_000, false));
        single(runId, ValidationCompleted.class);

        command(runId, new DeletionAuthorized(spec.name(), DeletionAuthorized.Basis.UNDER_LIMIT, "cp", null));

        assertThat(single(runId, ValidationFailed.class).reason()).contains("carries no signed authorization");
        assertThat(tasks(runId, 0)).isEmpty();
    }

    @Test
    void aDryRunStoresTheExactStatementsAndDeletesNothing() {
        String runId = withCandidates();

        command(runId, new ValidationRequested(spec, source, CUTOFF, 10, 1_000, true));

        assertThat(single(runId, ValidationCompleted.class).finalCount()).isEqualTo(5);
        ValidationReport report = files.readJson(S3Layout.reportKey(RunId.of(runId)), ValidationReport.class)
                .orElseThrow();
        assertThat(report.dryRun()).isTrue();
        assertThat(report.plannedStatementCount()).isPositive();
        assertThat(report.plannedStatements())
                .allSatisfy(s -> assertThat(s).contains("DELETE FROM \"" + schema + "\".\"profiles\""));
        // four batches of at most 3 (this context's batch size), each an identifier read and a row read of 2 statements
        assertThat(report.reads()).as("read statements charged to the budgets").isEqualTo(16);
        assertThat(report.readsPerCandidate()).isEqualTo(1.6);
        assertThat(profileIds()).hasSize(9);
    }

    private String withCandidates() {
        String runId = RunId.random().value();
        List<Candidate> candidates = LongStream.rangeClosed(1, 10)
                .mapToObj(id -> new Candidate(Map.of("customer_id", id), Long.toString(id), null))
                .toList();
        files.writePart(S3Layout.candidatesPartKey(RunId.of(runId), 0), candidates);
        return runId;
    }

    private List<Long> finalIds(String runId) {
        List<Long> ids = new ArrayList<>();
        for (String part : files.parts(S3Layout.finalPrefix(RunId.of(runId)))) {
            files.readPart(part).forEach(c -> ids.add(((Number) c.key().get("customer_id")).longValue()));
        }
        return ids.stream().sorted().toList();
    }

    private List<Long> profileIds() {
        return jdbc.queryForList("SELECT customer_id FROM " + schema + ".profiles", Long.class);
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

    /** validation-service's LOCAL ONLY public key, as the control plane trusts it: for validation's results only. */
    private static final TrustedKeys CONTROL_PLANE_TRUST = TrustedKeys.of(Map.of(
            "validation-local",
            new Trusted(
                    TrustedKeys.publicKey(
                            "validation-local", "MCowBQYDK2VwAyEAvTt3zuKHccemqeqo0lyYmqneRWch7MTfpeAs6LR4t6k="),
                    EnumSet.of(Kind.VALIDATION_RESULT))));

    /** The run's one event of {@code type}, sealed with validation-service's key as the control plane checks it. */
    private <P extends EventPayload> P single(String runId, Class<P> type) {
        List<EventEnvelope> found = events(runId, e -> type.isInstance(e.payload()), 1);
        assertThat(found).as(type.getSimpleName() + " of run " + runId).hasSize(1);
        assertThat(EventSeals.refusal(found.get(0), CONTROL_PLANE_TRUST))
                .as("the seal of " + type.getSimpleName() + " of run " + runId)
                .isEmpty();
        return type.cast(found.get(0).payload());
    }

    private List<EventEnvelope> events(String runId, Predicate<EventEnvelope> filter, int atLeast) {
        return read(
                Topics.RUN_EVENTS,
                value -> json.readValue(value, EventEnvelope.class),
                e -> runId.equals(e.runId()) && filter.test(e),
                atLeast);
    }

    private List<DeletionTask> tasks(String runId, int atLeast) {
        return read(
                Topics.DELETION_TASKS,
                value -> json.readValue(value, DeletionTask.class),
                t -> t.runId() != null && runId.equals(t.runId().value()),
                atLeast);
    }

    private <T> List<T> read(String topic, Function<String, T> parse, Predicate<T> filter, int atLeast) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                topic,
                parse,
                filter,
                atLeast,
                Duration.ofSeconds(atLeast == 0 ? 4 : 40));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
