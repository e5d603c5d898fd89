package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletion.trust.Refusal;
import io.erasure.deletion.trust.RefusedTasks;
import io.erasure.deletion.trust.TaskVerifier;
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
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.RefusedTask;
import io.erasure.model.task.SpreadWindow;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TaskAuthority;
import io.erasure.support.trust.SpecDigest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The task topic is a trust boundary: tasks produced straight to {@code erasure.deletion.tasks} by anything but the
 * platform delete nothing and are refused with the reason, while a run the control plane authorized deletes exactly its
 * final set. A refused task is not proven authentic, so the run or request it claims is left alone (no
 * {@code BatchFailed} under its ids, which would fail a genuine run): the refusal is counted and published on
 * {@code erasure.deletion.tasks.refused}. Only a task proven authentic and refused by a later check fails its run. Two
 * live tables, {@code profiles} (the dataset's) and {@code accounts} (another team's), rows 1..10 each, all written
 * long before the cut-off.
 */
class ForgedTaskIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));
    /** A key pair nobody trusts, under the control plane's key id. */
    private static final SigningKey FORGER =
            SigningKey.of("control-plane-local", "MC4CAQAwBQYDK2VwBCIEIEUHjKJq8tv3PnGRRnfIRcoUP/qVi14iPX4vPt+cJmxT");

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    @Autowired
    MeterRegistry meters;

    private String schema;
    private DatasetSpec profiles;

    @BeforeEach
    void liveTables() {
        schema = "f" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        for (String table : List.of("profiles", "accounts")) {
            jdbc.execute("CREATE TABLE " + schema + "." + table
                    + " (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
            jdbc.update(
                    "INSERT INTO " + schema + "." + table + " SELECT g, ? FROM generate_series(1, 10) g",
                    Timestamp.from(NOW.minus(Duration.ofDays(10))));
        }
        profiles = DatasetSpec.builder()
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
    void anAuthorizedRunDeletesExactlyItsFinalSet() {
        DeletionTask task = runs.authorize(task(RunId.random(), profiles, 1, 2, 3));

        publish(task);

        assertThat(single(task, BatchCompleted.class).counts().deleted()).isEqualTo(3);
        assertThat(ids("profiles")).containsExactly(4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(ids("accounts")).hasSize(10);
    }

    @Test
    void forgedTasksWithAGenuineRunsIdsFailNothingAndTheGenuineRunThenCompletes() {
        RunId run = RunId.random();
        DeletionTask genuine = runs.authorize(task(run, profiles, 1, 2, 3));
        // the genuine authorization copied onto other keys; the genuine task under another id; no authorization at all
        DeletionTask otherKeys = task(run, profiles, 4, 5).withAuthority(genuine.authority());
        DeletionTask renamed = new DeletionTask(
                "task-" + "f".repeat(40),
                run,
                null,
                genuine.dataset(),
                genuine.spec(),
                genuine.keys(),
                genuine.cutoff(),
                genuine.priority(),
                null,
                null,
                List.of(),
                null,
                genuine.authority());
        DeletionTask unsigned = task(run, profiles, 6);
        double keysBefore = refusedCount("RUN", Refusal.KEYS_NOT_COVERED);
        double idsBefore = refusedCount("RUN", Refusal.ID_MISMATCH);
        double unsignedBefore = refusedCount("RUN", Refusal.UNSIGNED);

        publish(otherKeys);
        publish(renamed);
        publish(unsigned);

        assertThat(failuresOf(run, 1, Duration.ofSeconds(8)))
                .as("BatchFailed under the genuine run's id")
                .isEmpty();
        RefusedTask copied = refusedRecord(otherKeys, "2 of its 2 keys are not in part 0");
        assertThat(copied.runId()).isEqualTo(run.value());
        assertThat(copied.requestId()).isNull();
        assertThat(copied.dataset()).isEqualTo(profiles.name());
        assertThat(copied.kind()).isEqualTo(Authorization.Kind.RUN);
        assertThat(copied.reasonClass()).isEqualTo(Refusal.KEYS_NOT_COVERED);
        assertThat(copied.keyId())
                .as("the key its (genuine) authorization names")
                .isEqualTo("control-plane-local");
        assertThat(copied.receivedAt()).isBetween(NOW, Instant.now());
        assertThat(copied.source()).startsWith(Topics.DELETION_TASKS + "-");
        assertThat(refusedRecord(renamed, "its id is not the one its content gives")
                        .reasonClass())
                .isEqualTo(Refusal.ID_MISMATCH);
        assertThat(refusedRecord(unsigned, "carries no authorization").keyId()).isNull();
        assertThat(refusedCount("RUN", Refusal.KEYS_NOT_COVERED)).isGreaterThan(keysBefore);
        assertThat(refusedCount("RUN", Refusal.ID_MISMATCH)).isGreaterThan(idsBefore);
        assertThat(refusedCount("RUN", Refusal.UNSIGNED)).isGreaterThan(unsignedBefore);
        assertThat(ids("profiles")).as("nothing deleted").hasSize(10);

        publish(genuine);

        assertThat(single(genuine, BatchCompleted.class).counts().deleted()).isEqualTo(3);
        assertThat(ids("profiles")).containsExactly(4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(failuresOf(run, 0, Duration.ofSeconds(2)))
                .as("the genuine run never failed")
                .isEmpty();
    }

    @Test
    void anAuthenticTaskRefusedByALaterCheckFailsItsRun() {
        // the control plane's own authorization of a cut-off in the future: nothing forged, so the run is told
        DeletionTask future = runs.authorize(DeletionTask.forRun(
                RunId.random(),
                profiles,
                keys(1, 2),
                CutoffTimestamp.fromInstant(Instant.now().plus(Duration.ofHours(1)))));

        publish(future);

        assertThat(single(future, BatchFailed.class)).satisfies(failed -> {
            assertThat(failed.reason()).contains("cut-off in the future");
            assertThat(failed.retryable()).isFalse();
        });
        assertThat(refusedRecords(future, 0, Duration.ofSeconds(2)))
                .as("not a refusal of a forged task")
                .isEmpty();
        assertThat(ids("profiles")).hasSize(10);
    }

    @Test
    void aTaskWithoutAnAuthorizationDeletesNothing() {
        DeletionTask forged = task(RunId.random(), profiles, 1, 2);

        assertRefused(forged, Refusal.UNSIGNED, "carries no authorization");
    }

    @Test
    void aTaskSignedByAnUntrustedKeyDeletesNothing() {
        DeletionTask genuine = task(RunId.random(), profiles, 1, 2);
        runs.authorize(genuine); // its final set and manifest exist; only the signature is the forger's
        DeletionTask forged = genuine.withAuthority(TaskAuthority.ofRun(FORGER.sign(unsigned(genuine, "digest")), 0));
        DeletionTask unknownKey = task(RunId.random(), profiles, 3)
                .withAuthority(TaskAuthority.ofRun(
                        SigningKey.of("intruder-1", "MC4CAQAwBQYDK2VwBCIEIEUHjKJq8tv3PnGRRnfIRcoUP/qVi14iPX4vPt+cJmxT")
                                .sign(unsigned(task(RunId.random(), profiles, 3), "digest")),
                        0));

        assertRefused(forged, Refusal.BAD_SIGNATURE, "does not match its content");
        assertThat(assertRefused(unknownKey, Refusal.UNTRUSTED_KEY, "signed by key 'intruder-1', which is not trusted")
                        .keyId())
                .isEqualTo("intruder-1");
    }

    @Test
    void aValidAuthorizationDoesNotCoverAnotherTableInTheTasksSpec() {
        RunId run = RunId.random();
        DeletionTask genuine = runs.authorize(task(run, profiles, 1, 2));
        // same dataset name, same run, same keys: only the table differs
        DatasetSpec otherTable = profiles.toBuilder().table("accounts").build();
        DeletionTask forged = task(run, otherTable, 1, 2).withAuthority(genuine.authority());

        assertRefused(forged, Refusal.OTHER_SPEC, "is not the spec its authorization covers");
        assertThat(ids("accounts")).as("another team's table").hasSize(10);
    }

    @Test
    void aPacedRunsTaskCopiedWithoutItsWindowOrWithAnEarlierOneDeletesNothing() {
        DatasetSpec paced = profiles.toBuilder().spreadOver(Duration.ofHours(6)).build();
        RunId run = RunId.random();
        DeletionTask genuine = runs.authorize(
                task(run, paced, 1, 2).withSpread(SpreadWindow.of(Instant.now(), Duration.ofHours(6), 2)));

        assertRefused(
                task(run, paced, 1, 2).withAuthority(genuine.authority()),
                Refusal.PACING_MISMATCH,
                "its spec spreads the run over PT6H but it carries no spread window");
        assertRefused(
                task(run, paced, 1, 2)
                        .withSpread(SpreadWindow.of(Instant.now().minus(Duration.ofHours(5)), Duration.ofHours(6), 2))
                        .withAuthority(genuine.authority()),
                Refusal.PACING_MISMATCH,
                "before the run was authorized");
        assertRefused(
                task(run, paced, 1, 2)
                        .withSpread(SpreadWindow.of(Instant.now(), Duration.ofHours(6), 2_000_000))
                        .withAuthority(genuine.authority()),
                Refusal.PACING_MISMATCH,
                "plans 2000000 keys");
        assertThat(ids("profiles")).contains(1L, 2L);
    }

    @Test
    void keysOutsideTheAuthorizedFinalSetDeleteNothing() {
        RunId run = RunId.random();
        DeletionTask genuine = runs.authorize(task(run, profiles, 1, 2));
        DeletionTask forged = task(run, profiles, 1, 2, 7, 8).withAuthority(genuine.authority());

        RefusedTask refused = assertRefused(
                forged,
                Refusal.KEYS_NOT_COVERED,
                "2 of its 4 keys are not in part 0 of run " + run.value() + "'s authorized final set");
        assertThat(refused.reason())
                .as("a key is a column value: named by its log key hash, never in clear")
                .contains(Topics.logKey(forged.dataset(), forged.keys().get(2)))
                .doesNotContain("\"id\"");
        assertThat(ids("profiles"))
                .as("not even the authorized keys of the forged task")
                .contains(1L, 2L);
    }

    @Test
    void anotherRunsAuthorizationDoesNotAuthorizeThisRun() {
        DeletionTask older = runs.authorize(task(RunId.random(), profiles, 5));
        DeletionTask forged = task(RunId.random(), profiles, 5, 6).withAuthority(older.authority());

        assertRefused(
                forged,
                Refusal.OTHER_ORIGIN,
                "its authorization is for '" + older.runId().value() + "'");
    }

    @Test
    void aForwardTaskDeletesOnlyWithTheControlPlanesSignatureOfExactlyItsKeys() {
        String request = "req-" + UUID.randomUUID();
        DeletionTask unsigned = DeletionTask.forward(request, profiles, keys(1, 2), CUTOFF, 5);
        assertRefused(unsigned, Refusal.UNSIGNED, "carries no authorization");

        DeletionTask signedForOthers =
                AuthorizedRuns.CONTROL_PLANE_TASKS.sign(DeletionTask.forward(request, profiles, keys(9), CUTOFF, 5));
        DeletionTask moreKeys = DeletionTask.forward(request, profiles, keys(1, 2), CUTOFF, 5)
                .withAuthority(signedForOthers.authority());
        assertRefused(moreKeys, Refusal.KEYS_NOT_COVERED, "its keys are not the keys its authorization covers");

        DeletionTask genuine =
                AuthorizedRuns.CONTROL_PLANE_TASKS.sign(DeletionTask.forward(request, profiles, keys(1, 2), CUTOFF, 5));
        publish(genuine);
        assertThat(single(genuine, BatchCompleted.class).counts().deleted()).isEqualTo(2);
        assertThat(ids("profiles")).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
    }

    @Test
    void aCopyTaskDeletesOnlyWithTheDeletionServicesSignature() {
        // a "copy" that is another team's table: only the deletion service derives copy tasks, after their source
        DatasetSpec withCopy = profiles.toBuilder()
                .copies(List.of(new DatasetCopy(
                        "shadow",
                        StoreKind.POSTGRES,
                        "pg-main",
                        new CopyTarget.TableMapping(schema, "accounts", Map.of("id", "id")))))
                .build();
        DeletionTask source = task(RunId.random(), withCopy, 1, 2);
        DeletionTask copy = DeletionTask.forCopy(source, withCopy.copies().get(0), keys(1, 2));

        assertRefused(copy, Refusal.UNSIGNED, "carries no authorization");
        assertRefused(
                AuthorizedRuns.CONTROL_PLANE_TASKS.sign(copy),
                Refusal.KEY_NOT_GRANTED,
                "which is trusted for" + " [RUN, FORWARD, CONTROL] but not for COPY");
        assertThat(ids("accounts")).hasSize(10);
    }

    /**
     * {@code forged}, published, deletes nothing, logs nothing, fails nothing under the ids it claims, and is counted
     * and published as refused with {@code reason}; returns its refusal record.
     */
    private RefusedTask assertRefused(DeletionTask forged, String reasonClass, String reason) {
        List<Long> profilesBefore = ids("profiles");
        String kind = TaskVerifier.kindOf(forged).name();
        double before = refusedCount(kind, reasonClass);
        publish(forged);

        RefusedTask refused = refusedRecord(forged, reason);
        assertThat(refused.reasonClass()).isEqualTo(reasonClass);
        assertThat(refused.kind().name()).isEqualTo(kind);
        assertThat(refused.originId()).isEqualTo(forged.originId());
        assertThat(refused.dataset()).isEqualTo(forged.dataset());
        assertThat(refused.signedBy())
                .as("signed by this service, so the control plane can tell it from a forged report")
                .isEqualTo("deletion-local");
        assertThat(refused.signature()).isNotBlank();
        assertThat(refusedCount(kind, reasonClass))
                .as("erasure.deletion.tasks.refused{kind=" + kind + ",reason=" + reasonClass + "}")
                .isGreaterThan(before);
        assertThat(failuresOf(forged)).as("BatchFailed under the ids it claims").isEmpty();
        assertThat(ids("profiles")).as("nothing deleted").isEqualTo(profilesBefore);
        assertThat(ids("accounts")).hasSize(10);
        assertThat(records(forged)).as("nothing logged as deleted").isEmpty();
        return refused;
    }

    /**
     * The refusal of {@code task} with {@code reason} on erasure.deletion.tasks.refused (a task may be refused twice).
     */
    private RefusedTask refusedRecord(DeletionTask task, String reason) {
        List<RefusedTask> found = refusedRecords(task, 1, Duration.ofSeconds(60)).stream()
                .filter(r -> r.reason().contains(reason))
                .toList();
        assertThat(found).as("refused with the reason '" + reason + "'").isNotEmpty();
        return found.get(0);
    }

    private List<RefusedTask> refusedRecords(DeletionTask task, int atLeast, Duration within) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_TASKS_REFUSED,
                value -> json.readValue(value, RefusedTask.class),
                r -> r.taskId().equals(task.taskId()),
                atLeast,
                within);
    }

    /** BatchFailed events of {@code task} or of the run or request it claims. */
    private List<BatchFailed> failuresOf(DeletionTask task) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> e.payload() instanceof BatchFailed f
                                && (f.taskId().equals(task.taskId())
                                        || (task.runId() != null
                                                && task.runId().value().equals(e.runId()))
                                        || (task.requestId() != null
                                                && task.requestId().equals(f.requestId()))),
                        0,
                        Duration.ofSeconds(2))
                .stream()
                .map(e -> (BatchFailed) e.payload())
                .toList();
    }

    /** BatchFailed events of {@code run}: waits for {@code atLeast} of them, or {@code within}. */
    private List<BatchFailed> failuresOf(RunId run, int atLeast, Duration within) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> e.payload() instanceof BatchFailed && run.value().equals(e.runId()),
                        atLeast,
                        within)
                .stream()
                .map(e -> (BatchFailed) e.payload())
                .toList();
    }

    private double refusedCount(String kind, String reasonClass) {
        Counter counter = meters.find(RefusedTasks.METRIC)
                .tag("kind", kind)
                .tag("reason", reasonClass)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static Authorization unsigned(DeletionTask task, String setDigest) {
        return Authorization.unsigned(
                Authorization.Kind.RUN,
                task.runId().value(),
                task.dataset(),
                SpecDigest.of(task.spec()),
                setDigest,
                task.cutoff().micros(),
                "APPROVED",
                "mallory",
                Instant.now());
    }

    private static List<Map<String, Object>> keys(long... ids) {
        return LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    private static DeletionTask task(RunId run, DatasetSpec spec, long... ids) {
        List<Map<String, Object>> keys = LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
        return DeletionTask.forRun(run, spec, keys, CUTOFF);
    }

    private void publish(DeletionTask task) {
        try {
            kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(task))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Long> ids(String table) {
        return jdbc.queryForList("SELECT id FROM " + schema + "." + table + " ORDER BY id", Long.class);
    }

    private <P> P single(DeletionTask task, Class<P> type) {
        List<P> events = TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> type.isInstance(e.payload()) && task.taskId().equals(taskIdOf(e.payload())),
                        1,
                        Duration.ofSeconds(60))
                .stream()
                .map(e -> type.cast(e.payload()))
                .toList();
        assertThat(events).hasSize(1);
        return events.get(0);
    }

    private static String taskIdOf(Object payload) {
        return payload instanceof BatchCompleted completed
                ? completed.taskId()
                : payload instanceof BatchFailed failed ? failed.taskId() : null;
    }

    private List<DeletionRecord> records(DeletionTask task) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_LOG,
                this::logged,
                r -> task.taskId().equals(r.taskId()),
                0,
                Duration.ofSeconds(2));
    }
}
